// The one key dispatcher: every shortcut in the app (pane and tab chords, 'g u' sequences, the
// lists' j / k / Enter / x / `/`) is a command in the registry and goes through here. One keydown
// listener on the document (bubble phase, so a focused widget that handles a key itself — a tab
// strip's arrows, a dialog's Escape — keeps it), matching by physical key (KeyboardEvent.code).
// - Plain keys and sequences never fire while the user types in a field; Ctrl/Alt/⌘ chords do.
// - Inside a dialog only the palette toggle works, so a shortcut never acts behind a modal.
// - A command that does not apply (`when`) leaves the key alone (no preventDefault): Enter on a
//   button still presses it.
// - A scanner burst (scanner.ts) is recognised before any of this, in the capture phase.
import { useEffect, useRef } from 'react';
import { isEnabled, isPermitted, runCommand, type Command, type CommandContext } from './define';
import { canonicalForms, eventChord, hasCommandModifier, inDialog, isTypingTarget, parseKeys } from './keys';
import { createCommandContext } from './context';
import { currentScanHandler, ScanDetector, scanPlace, type ScanOptions } from './scanner';

export { isTypingTarget } from './keys';

type Binding = { cmd: Command; typingSafe: boolean };

export const SEQUENCE_TIMEOUT_MS = 1000;

/** Canonical form ('alt+w', 'g u', 'ctrl+enter') → command. */
export function buildBindings(commands: readonly Command[]): Map<string, Binding> {
  const map = new Map<string, Binding>();
  for (const cmd of commands) {
    if (!cmd.keys) continue;
    const parsed = parseKeys(cmd.keys);
    // Not a sequence: the binding is one chord.
    const typingSafe = !parsed.sequence && parsed.chords.every(hasCommandModifier);
    for (const form of canonicalForms(cmd.keys)) map.set(form, { cmd, typingSafe });
  }
  return map;
}

export type DispatcherOptions = {
  /** Context for a command, given the element the key was pressed on. */
  makeContext: (target: EventTarget | null) => CommandContext;
  sequenceTimeoutMs?: number;
  now?: () => number;
};

/** Matches key events to commands and runs them. Separate from React so it can be driven directly. */
export class KeyDispatcher {
  private readonly bindings: Map<string, Binding>;
  private readonly firstSteps = new Set<string>();
  private pending: { step: string; at: number } | null = null;

  constructor(
    commands: readonly Command[],
    private readonly opts: DispatcherOptions,
  ) {
    this.bindings = buildBindings(commands);
    for (const form of this.bindings.keys()) {
      const space = form.indexOf(' ');
      if (space >= 0) this.firstSteps.add(form.slice(0, space));
    }
  }

  /** Handles one keydown; true when a command ran (the event's default is then prevented). */
  handle(e: KeyboardEvent): boolean {
    if (e.isComposing || e.keyCode === 229) return false;
    const chord = eventChord(e);
    if (!chord) return false; // a modifier on its own: keep any pending sequence
    const now = (this.opts.now ?? Date.now)();
    const timeout = this.opts.sequenceTimeoutMs ?? SEQUENCE_TIMEOUT_MS;

    const pending = this.pending;
    this.pending = null;
    if (pending && now - pending.at <= timeout) {
      const seq = this.bindings.get(`${pending.step} ${chord}`);
      if (seq) return this.run(seq, e);
      // Not a continuation: the key counts on its own.
    }
    const single = this.bindings.get(chord);
    if (single) return this.run(single, e);
    if (this.firstSteps.has(chord) && !e.repeat && !isTypingTarget(e.target) && !inDialog(e.target)) {
      this.pending = { step: chord, at: now };
    }
    return false;
  }

  /** Forgets a started sequence. */
  reset() {
    this.pending = null;
  }

  /** Whether the key on its own (no sequence before it) is bound to a command. */
  isSingleKey(e: KeyboardEvent): boolean {
    const chord = eventChord(e);
    return !!chord && this.bindings.has(chord);
  }

  private run(b: Binding, e: KeyboardEvent): boolean {
    if (e.repeat && !b.cmd.repeat) return false;
    if (!b.typingSafe && isTypingTarget(e.target)) return false;
    if (inDialog(e.target) && b.cmd.id !== 'palette.open') return false;
    const ctx = this.opts.makeContext(e.target);
    if (!isPermitted(b.cmd, ctx.can) || !isEnabled(b.cmd, ctx)) return false;
    e.preventDefault();
    void runCommand(b.cmd, ctx);
    return true;
  }
}

/** Scan keys: when the key was pressed (the event's own time survives a busy main thread). */
const eventTime = (e: KeyboardEvent) => (e.timeStamp > 0 ? e.timeStamp : Date.now());

export function KeyListener({
  commands,
  makeContext = (target) => createCommandContext({ target }),
  scanOptions,
}: {
  commands: readonly Command[];
  makeContext?: (target: EventTarget | null) => CommandContext;
  scanOptions?: Partial<ScanOptions>;
}) {
  const makeRef = useRef(makeContext);
  makeRef.current = makeContext;

  useEffect(() => {
    const dispatcher = new KeyDispatcher(commands, { makeContext: (t) => makeRef.current(t) });
    const detector = new ScanDetector<KeyboardEvent>(
      (code) => {
        // Keys of the scan released early may have started a sequence ('b …'): it is void.
        dispatcher.reset();
        currentScanHandler()?.(code);
      },
      (held) => held.map((ev) => dispatcher.handle(ev)).some(Boolean),
      scanOptions,
    );

    // Capture phase: the scanner sees every key first. Held keys go on to the page (they are
    // printable keys outside fields, so nothing there acts on them) but not to the dispatcher yet.
    const onCapture = (e: KeyboardEvent) => {
      const eligible =
        !!currentScanHandler() && !e.ctrlKey && !e.altKey && !e.metaKey && !e.repeat && !e.isComposing && scanPlace(e.target, isTypingTarget, inDialog);
      const verdict = detector.feed({ key: e.key, time: eventTime(e), eligible, shortcut: eligible && dispatcher.isSingleKey(e) }, e);
      if (verdict === 'scan') {
        // The scan's Enter must not press the focused button or open the focused row.
        e.preventDefault();
        e.stopPropagation();
      }
    };
    const onBubble = (e: KeyboardEvent) => {
      if (detector.isHeld(e)) return;
      if (e.defaultPrevented) return; // a widget handled it
      dispatcher.handle(e);
    };
    window.addEventListener('keydown', onCapture, true);
    document.addEventListener('keydown', onBubble);
    // Says that the shortcuts work from now on: a browser test waits for it before it presses keys
    // (the side navigation shows before the workspace's listener is attached).
    document.documentElement.dataset.keys = 'ready';
    return () => {
      delete document.documentElement.dataset.keys;
      window.removeEventListener('keydown', onCapture, true);
      document.removeEventListener('keydown', onBubble);
      detector.dispose();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [commands, scanOptions?.maxGapMs, scanOptions?.minLength, scanOptions?.holdMs]);

  return null;
}
