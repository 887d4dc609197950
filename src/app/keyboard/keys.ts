// One key notation serves matching, display and checking (tldraw's `kbd` idea):
//   'mod+k'        a chord: modifiers (mod = Ctrl, or ⌘ on a Mac; ctrl, alt, shift, meta) and one key
//   'g u'          a sequence: chords separated by spaces, typed within about a second
//   '?'  'alt+]'   printable keys are written as the character they print (US layout)
// Keys are matched by physical position (KeyboardEvent.code), so Alt and Option combinations work
// on every platform even when they print something else.

export type Chord = { mod: boolean; ctrl: boolean; alt: boolean; shift: boolean; meta: boolean; key: string };
export type ParsedKeys = { chords: Chord[]; sequence: boolean };

/** Characters typed with Shift on a US keyboard, and the unshifted key they sit on. */
const SHIFTED: Record<string, string> = {
  '?': '/',
  '{': '[',
  '}': ']',
  '|': '\\',
  '~': '`',
  _: '-',
  '+': '=',
  ':': ';',
  '"': "'",
  '<': ',',
  '>': '.',
  '!': '1',
  '@': '2',
  '#': '3',
  $: '4',
  '%': '5',
  '^': '6',
  '&': '7',
  '*': '8',
  '(': '9',
  ')': '0',
};

/** Printable key → the name of its KeyboardEvent.code as react-hotkeys-hook spells it. */
const CODE_NAME: Record<string, string> = {
  '/': 'slash',
  '\\': 'backslash',
  '[': 'bracketleft',
  ']': 'bracketright',
  '-': 'minus',
  '=': 'equal',
  '`': 'backquote',
  ',': 'comma',
  '.': 'period',
  ';': 'semicolon',
  "'": 'quote',
};

const NAMED = new Set([
  'enter',
  'escape',
  'backspace',
  'delete',
  'tab',
  'space',
  'home',
  'end',
  'pageup',
  'pagedown',
  'insert',
  'left',
  'right',
  'up',
  'down',
  ...Array.from({ length: 12 }, (_, i) => `f${i + 1}`),
]);

const MODIFIERS = ['mod', 'ctrl', 'alt', 'shift', 'meta'] as const;

export class KeyNotationError extends Error {}

function parseChord(text: string, whole: string): Chord {
  // A chord like 'alt+-' or 'alt+=': split on '+' but keep a trailing key that is itself '+'/'-'.
  const parts = text === '+' ? ['+'] : text.split(/\+(?=.)/);
  const c: Chord = { mod: false, ctrl: false, alt: false, shift: false, meta: false, key: '' };
  parts.forEach((raw, i) => {
    const p = raw.length === 1 ? raw : raw.toLowerCase();
    const last = i === parts.length - 1;
    if (!last) {
      const m = (p === 'control' ? 'ctrl' : p === 'cmd' ? 'meta' : p) as (typeof MODIFIERS)[number];
      if (!MODIFIERS.includes(m)) throw new KeyNotationError(`"${whole}": unknown modifier "${raw}"`);
      if (c[m]) throw new KeyNotationError(`"${whole}": modifier "${raw}" given twice`);
      c[m] = true;
      return;
    }
    let key = p.length === 1 ? p.toLowerCase() : p;
    if (key === 'esc') key = 'escape';
    if (key === 'return') key = 'enter';
    if (key === 'arrowleft' || key === 'arrowright' || key === 'arrowup' || key === 'arrowdown') key = key.slice(5);
    const unshifted = SHIFTED[key];
    if (unshifted) {
      c.shift = true;
      key = unshifted;
    }
    const ok = /^[a-z0-9]$/.test(key) || key in CODE_NAME || NAMED.has(key);
    if (!ok) throw new KeyNotationError(`"${whole}": unknown key "${raw}"`);
    c.key = key;
  });
  if (!c.key) throw new KeyNotationError(`"${whole}": no key`);
  if (c.mod && (c.ctrl || c.meta)) throw new KeyNotationError(`"${whole}": use mod or ctrl/meta, not both`);
  return c;
}

export function parseKeys(keys: string): ParsedKeys {
  const text = keys.trim();
  if (!text) throw new KeyNotationError('empty key binding');
  const tokens = text.split(/\s+/);
  const chords = tokens.map((t) => parseChord(t, text));
  if (chords.length > 1 && chords.some((c) => c.mod || c.ctrl || c.alt || c.meta)) {
    throw new KeyNotationError(`"${keys}": sequences are plain keys only`);
  }
  return { chords, sequence: chords.length > 1 };
}

/** A chord with Ctrl, Alt, ⌘ (or mod) fires even while typing in a field; plain keys never do. */
export function hasCommandModifier(c: Chord): boolean {
  return c.mod || c.ctrl || c.alt || c.meta;
}

/**
 * Every concrete chord a binding stands for: 'mod' is Ctrl on Windows/Linux and ⌘ on a Mac, so
 * 'mod+k' is both 'ctrl+k' and 'meta+k'. Canonical text: modifiers in a fixed order, then the key.
 */
export function concreteChords(c: Chord): string[] {
  const base = (ctrl: boolean, meta: boolean) => [c.alt && 'alt', ctrl && 'ctrl', meta && 'meta', c.shift && 'shift', c.key].filter(Boolean).join('+');
  return c.mod ? [base(true, c.meta), base(c.ctrl, true)] : [base(c.ctrl, c.meta)];
}

/** Canonical forms of a whole binding (one per platform reading of 'mod'). */
export function canonicalForms(keys: string): string[] {
  const { chords } = parseKeys(keys);
  let forms = [''];
  for (const c of chords) {
    const next: string[] = [];
    for (const f of forms) for (const cc of concreteChords(c)) next.push(f ? `${f} ${cc}` : cc);
    forms = next;
  }
  return [...new Set(forms)];
}

/** The same binding in react-hotkeys-hook's syntax: code names, '>' between sequence steps. */
export function toHotkeysHook(keys: string): string {
  const { chords } = parseKeys(keys);
  const one = (c: Chord) =>
    [c.mod && 'mod', c.ctrl && 'ctrl', c.alt && 'alt', c.shift && 'shift', c.meta && 'meta', CODE_NAME[c.key] ?? c.key].filter(Boolean).join('+');
  // A single chord is just itself; sequence steps are joined with '>'.
  return chords.map(one).join('>');
}

const SHIFTED_BACK: Record<string, string> = Object.fromEntries(Object.entries(SHIFTED).map(([k, v]) => [v, k]));
const KEY_LABEL: Record<string, string> = {
  enter: 'Enter',
  escape: 'Esc',
  backspace: 'Backspace',
  delete: 'Delete',
  tab: 'Tab',
  space: 'Space',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  pagedown: 'PageDown',
  insert: 'Insert',
  left: '←',
  right: '→',
  up: '↑',
  down: '↓',
};

export function isMac(): boolean {
  return typeof navigator !== 'undefined' && /mac/i.test(navigator.platform || navigator.userAgent) && !/iphone|ipad|ipod/i.test(navigator.userAgent);
}

/**
 * Human labels for a binding, one entry per step: 'mod+k' → ['Ctrl+K'] (['⌘K'] on a Mac),
 * 'g u' → ['G', 'U'], '?' → ['?'], 'alt+shift+t' → ['Alt+Shift+T'].
 */
export function formatKeys(keys: string, mac = isMac()): string[] {
  const { chords } = parseKeys(keys);
  return chords.map((c) => {
    const plainShifted = c.shift && !hasCommandModifier(c) && SHIFTED_BACK[c.key];
    const key = plainShifted || KEY_LABEL[c.key] || (c.key.length === 1 ? c.key.toUpperCase() : c.key.toUpperCase());
    const mods: string[] = [];
    if (mac) {
      if (c.ctrl) mods.push('⌃');
      if (c.alt) mods.push('⌥');
      if (c.shift && !plainShifted) mods.push('⇧');
      if (c.mod || c.meta) mods.push('⌘');
      return mods.join('') + key;
    }
    if (c.mod || c.ctrl) mods.push('Ctrl');
    if (c.meta) mods.push('Meta');
    if (c.alt) mods.push('Alt');
    if (c.shift && !plainShifted) mods.push('Shift');
    return [...mods, key].join('+');
  });
}

/** One line of text for a binding: 'Ctrl+K', 'G then U'. */
export function formatKeysText(keys: string, mac = isMac()): string {
  return formatKeys(keys, mac).join(' then ');
}

/**
 * Keys the browser keeps for itself (or that break keyboard navigation) on Windows, Linux or
 * macOS. A command bound to any of them fails the registry check. 'mod' covers Ctrl and ⌘.
 */
export const RESERVED_KEYS: readonly { keys: string; why: string; local?: boolean }[] = [
  { keys: 'mod+t', why: 'new browser tab' },
  { keys: 'mod+shift+t', why: 'reopen closed browser tab' },
  { keys: 'mod+w', why: 'close browser tab' },
  { keys: 'mod+shift+w', why: 'close browser window' },
  { keys: 'mod+n', why: 'new browser window' },
  { keys: 'mod+shift+n', why: 'new private window' },
  { keys: 'mod+l', why: 'address bar' },
  { keys: 'alt+d', why: 'address bar' },
  { keys: 'mod+q', why: 'quit browser' },
  { keys: 'mod+r', why: 'reload' },
  { keys: 'mod+shift+r', why: 'hard reload' },
  { keys: 'f5', why: 'reload' },
  { keys: 'ctrl+f5', why: 'hard reload' },
  { keys: 'tab', why: 'keyboard navigation' },
  { keys: 'shift+tab', why: 'keyboard navigation' },
  { keys: 'ctrl+tab', why: 'next browser tab' },
  { keys: 'ctrl+shift+tab', why: 'previous browser tab' },
  { keys: 'ctrl+pageup', why: 'previous browser tab' },
  { keys: 'ctrl+pagedown', why: 'next browser tab' },
  { keys: 'alt+left', why: 'history back' },
  { keys: 'alt+right', why: 'history forward' },
  { keys: 'alt+home', why: 'home page' },
  { keys: 'mod+[', why: 'history back (macOS)' },
  { keys: 'mod+]', why: 'history forward (macOS)' },
  ...Array.from({ length: 9 }, (_, i) => ({ keys: `mod+${i + 1}`, why: 'switch browser tab' })),
  { keys: 'mod+0', why: 'reset zoom' },
  { keys: 'mod+=', why: 'zoom in' },
  { keys: 'mod+-', why: 'zoom out' },
  { keys: 'mod+d', why: 'bookmark' },
  { keys: 'mod+h', why: 'history / hide window (macOS)' },
  { keys: 'mod+m', why: 'minimise window (macOS)' },
  { keys: 'mod+j', why: 'downloads' },
  { keys: 'mod+shift+i', why: 'developer tools' },
  { keys: 'mod+shift+j', why: 'developer tools' },
  { keys: 'mod+shift+c', why: 'developer tools' },
  { keys: 'f6', why: 'address bar / panel cycling' },
  { keys: 'f11', why: 'full screen' },
  { keys: 'f12', why: 'developer tools' },
  { keys: 'alt+f4', why: 'close window' },
  { keys: 'alt+space', why: 'window menu' },
  // Menu access keys (Chrome's menu, Firefox's menu bar).
  ...['f', 'e', 'v', 's', 'b', 't', 'h'].map((k) => ({ keys: `alt+${k}`, why: 'browser menu' })),
  // Without modifiers these belong to the page and to assistive technology. A command scoped to a
  // focused list (scope: 'list') may still use them: it fires only on the list's own grid element,
  // which is not a control, and only when the command applies there (`when`).
  { keys: 'escape', why: 'closes dialogs', local: true },
  { keys: 'enter', why: 'activates controls', local: true },
  { keys: 'space', why: 'activates controls / scrolls', local: true },
];

let reservedIndex: Map<string, { why: string; local: boolean }> | null = null;
/**
 * Why a binding is reserved (first reason found), or null when it is free to use. `scoped`: the
 * command fires only inside a focused widget (a list), where the page's own keys may be reused.
 */
export function reservedReason(keys: string, scoped = false): string | null {
  if (!reservedIndex) {
    reservedIndex = new Map();
    for (const r of RESERVED_KEYS) for (const f of canonicalForms(r.keys)) reservedIndex.set(f, { why: r.why, local: !!r.local });
  }
  const { chords } = parseKeys(keys);
  // Every step of a sequence is pressed on its own, so each one must be free.
  for (const c of chords)
    for (const f of concreteChords(c)) {
      const hit = reservedIndex.get(f);
      if (hit && !(scoped && hit.local)) return `${f} (${hit.why})`;
    }
  return null;
}

// ---------------------------------------------------------------- key events

/** Keys whose code and printed key are the same name, in this notation. */
const NAMED_KEYS: Record<string, string> = {
  Enter: 'enter',
  Escape: 'escape',
  Backspace: 'backspace',
  Delete: 'delete',
  Tab: 'tab',
  Home: 'home',
  End: 'end',
  PageUp: 'pageup',
  PageDown: 'pagedown',
  Insert: 'insert',
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
};
/** The key of each code (physical position) that is not a letter, digit or F key. */
const CODE_KEY: Record<string, string> = {
  Slash: '/',
  Backslash: '\\',
  BracketLeft: '[',
  BracketRight: ']',
  Minus: '-',
  Equal: '=',
  Backquote: '`',
  Comma: ',',
  Period: '.',
  Semicolon: ';',
  Quote: "'",
  NumpadEnter: 'enter',
  Space: 'space',
  ...NAMED_KEYS,
};
/** The named keys by the key they print (no usable code). */
const KEY_NAME: Record<string, string> = { ...NAMED_KEYS, Esc: 'escape', ' ': 'space' };
const MODIFIER_KEYS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'AltGraph', 'CapsLock', 'OS', 'Hyper', 'Super', 'Fn']);

type KeyEventLike = Pick<KeyboardEvent, 'key' | 'code' | 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey'>;

/** The key of an event in this notation, by physical position (code), else by the key it printed. */
export function eventKey(e: Pick<KeyboardEvent, 'key' | 'code'>): string | null {
  if (MODIFIER_KEYS.has(e.key)) return null;
  const code = e.code || '';
  if (/^Key[A-Z]$/.test(code)) return code.slice('Key'.length).toLowerCase();
  if (/^Digit[0-9]$/.test(code)) return code.slice('Digit'.length);
  if (/^F([1-9]|1[0-2])$/.test(code)) return code.toLowerCase();
  const byCode = CODE_KEY[code];
  if (byCode) return byCode;
  // No usable code (synthetic events, some virtual keyboards): go by the printed key.
  const k = e.key;
  if (!k || k === 'Unidentified' || k === 'Dead') return null;
  const named = KEY_NAME[k];
  if (named) return named;
  if (/^F([1-9]|1[0-2])$/.test(k)) return k.toLowerCase();
  if (k.length === 1) {
    const lower = k.toLowerCase();
    return SHIFTED[lower] ?? lower;
  }
  return null;
}

/** The canonical chord of a key event ('alt+w', 'shift+/', 'j'), matching canonicalForms(); null for a lone modifier. */
export function eventChord(e: KeyEventLike): string | null {
  const key = eventKey(e);
  if (!key) return null;
  return [e.altKey && 'alt', e.ctrlKey && 'ctrl', e.metaKey && 'meta', e.shiftKey && 'shift', key].filter(Boolean).join('+');
}

// ---------------------------------------------------------------- where a key was pressed

const EDITABLE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider']);
const NOT_TEXT_INPUTS = new Set(['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'image', 'color', 'range']);

/**
 * Whether a key event comes from something the user types into (text inputs, text areas,
 * selects, editable content, text-like ARIA widgets). Plain keys never act there. The one test
 * for "typing" in the app: the key dispatcher, the scanner detector and the lists use it.
 */
export function isTypingTarget(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.closest !== 'function') return false;
  const tag = el.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !NOT_TEXT_INPUTS.has(((el as HTMLInputElement).type || 'text').toLowerCase());
  if (el.isContentEditable || el.closest('[contenteditable=""],[contenteditable="true"]')) return true;
  const role = el.getAttribute('role');
  return !!role && EDITABLE_ROLES.has(role);
}

/** Inside a modal dialog: shortcuts do not act behind it. */
export function inDialog(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && typeof el.closest === 'function' && !!el.closest('[role="dialog"],[role="alertdialog"]');
}
