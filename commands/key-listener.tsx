// The one key listener: a single react-hotkeys-hook registration for every command's binding
// (sequences like 'g u' use the library's own matcher, '>' between steps, 1 s timeout).
// Plain keys and sequences never fire while the user types in a field; Ctrl/Alt/⌘ chords do.
// Inside a dialog only the palette toggle works, so a shortcut never acts behind a modal.
import { useMemo } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { COMMANDS } from './index';
import { runCommand, type Command, type CommandContext } from './define';
import { hasCommandModifier, parseKeys, toHotkeysHook } from './keys';
import { createCommandContext } from './context';

type Binding = { cmd: Command; typingSafe: boolean };

export const SEQUENCE_TIMEOUT_MS = 1000;

const EDITABLE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider']);

/** Whether the key event comes from something the user types into. */
export function isTypingTarget(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.closest !== 'function') return false;
  const tag = el.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = ((el as HTMLInputElement).type || 'text').toLowerCase();
    return !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'image', 'color', 'range'].includes(type);
  }
  if (el.isContentEditable || el.closest('[contenteditable=""],[contenteditable="true"]')) return true;
  const role = el.getAttribute('role');
  return !!role && EDITABLE_ROLES.has(role);
}

function inDialog(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && typeof el.closest === 'function' && !!el.closest('[role="dialog"],[role="alertdialog"]');
}

export function buildBindings(commands: readonly Command[]): Map<string, Binding> {
  const map = new Map<string, Binding>();
  for (const cmd of commands) {
    if (!cmd.keys) continue;
    const parsed = parseKeys(cmd.keys);
    const typingSafe = !parsed.sequence && hasCommandModifier(parsed.chords[0]);
    map.set(toHotkeysHook(cmd.keys).toLowerCase(), { cmd, typingSafe });
  }
  return map;
}

function allowed(e: KeyboardEvent, b: Binding | undefined): b is Binding {
  if (!b || e.isComposing) return false;
  if (!b.typingSafe && isTypingTarget(e.target)) return false;
  if (inDialog(e.target) && b.cmd.id !== 'palette.open') return false;
  return true;
}

export function KeyListener({
  commands = COMMANDS,
  makeContext = () => createCommandContext(),
}: {
  commands?: readonly Command[];
  makeContext?: () => CommandContext;
}) {
  const bindings = useMemo(() => buildBindings(commands), [commands]);
  const keys = useMemo(() => [...bindings.keys()].join(','), [bindings]);
  useHotkeys(
    keys,
    (e, h) => {
      const b = bindings.get(h.hotkey.toLowerCase());
      if (!allowed(e, b)) return;
      void runCommand(b.cmd, makeContext());
    },
    {
      enableOnFormTags: true, // decided per binding in allowed()
      enableOnContentEditable: true,
      sequenceTimeoutMs: SEQUENCE_TIMEOUT_MS,
      preventDefault: (e, h) => allowed(e, bindings.get(h.hotkey.toLowerCase())),
    },
    [bindings, makeContext],
  );
  return null;
}
