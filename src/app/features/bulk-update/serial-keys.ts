// What the Bulk Update serial field does with a key, decided before the browser does anything
// with it. A hand-held scanner types a key every few milliseconds; each key the browser inserts
// itself is an editing command (beforeinput, the insertion, an undo step, a forced layout, input
// events), several milliseconds on a loaded 2-core machine, more than the scanner leaves between
// keys. Once the page falls behind, the browser handles the whole backlog of keys before it paints,
// and every row of the burst waits for it. So:
//  - Enter adds the serial at once (no implicit form submission and click on Add);
//  - a character that follows the field's previous key within the scanner gap (by the keys' own
//    times: the same rule as a burst outside fields, src/app/keyboard/scanner.ts) is appended by the field
//    itself, when the caret is at the end with nothing selected. The text is the same; nothing
//    else happens per key. A person typing (keys further apart), a key with Ctrl/Alt/⌘, a repeat,
//    an IME composition, a caret inside the text or a selection: the browser types as always.
import { isScanChar, SCAN_DEFAULTS } from '../../keyboard/scanner';

export type SerialKey = {
  /** KeyboardEvent.key */
  key: string;
  /** When it was pressed (ms; KeyboardEvent.timeStamp). */
  time: number;
  /** Ctrl, Alt or ⌘ held. */
  modified: boolean;
  repeat: boolean;
  composing: boolean;
};

export type SerialFieldText = { length: number; selectionStart: number | null; selectionEnd: number | null };

export type SerialKeyAction = 'submit' | 'append' | 'browser';

/**
 * 'submit': add what the field holds; 'append': the field appends `key.key` itself; 'browser':
 * leave the key to the browser. `previousKeyTime`: the time of the field's previous key (or -Infinity).
 */
export function serialKeyAction(k: SerialKey, field: SerialFieldText, previousKeyTime: number, maxGapMs = SCAN_DEFAULTS.maxGapMs): SerialKeyAction {
  if (k.modified || k.composing) return 'browser';
  if (k.key === 'Enter') return 'submit';
  const burst = k.time - previousKeyTime <= maxGapMs;
  const atEnd = field.selectionStart === field.length && field.selectionEnd === field.length;
  return burst && !k.repeat && isScanChar(k.key) && atEnd ? 'append' : 'browser';
}
