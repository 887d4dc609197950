// The Bulk Update serial field: Enter adds, a scanner's characters (keys within the scanner gap)
// are appended by the field itself when the caret is at the end; everything else is the browser's.
import { describe, expect, it } from 'vitest';
import { serialKeyAction, type SerialKey } from '../../../src/app/features/bulk-update/serial-keys';
import { SCAN_DEFAULTS } from '../../../src/app/keyboard/scanner';

const key = (k: string, time: number, more: Partial<SerialKey> = {}): SerialKey => ({
  key: k,
  time,
  modified: false,
  repeat: false,
  composing: false,
  ...more,
});
const atEnd = (length: number) => ({ length, selectionStart: length, selectionEnd: length });

describe('serialKeyAction', () => {
  it('Enter adds, also as the first key and after a pause', () => {
    expect(serialKeyAction(key('Enter', 1000), atEnd(8), -Infinity)).toBe('submit');
    expect(serialKeyAction(key('Enter', 5000), atEnd(0), 1000)).toBe('submit');
    expect(serialKeyAction(key('Enter', 5000, { modified: true }), atEnd(8), 4995)).toBe('browser');
    expect(serialKeyAction(key('Enter', 5000, { composing: true }), atEnd(8), 4995)).toBe('browser');
  });

  it('appends the characters of a burst (keys within the scanner gap, by their own times) at the end', () => {
    expect(serialKeyAction(key('A', 1005), atEnd(3), 1000)).toBe('append');
    expect(serialKeyAction(key('7', 1000 + SCAN_DEFAULTS.maxGapMs), atEnd(3), 1000)).toBe('append');
    expect(serialKeyAction(key('-', 1005), atEnd(0), 1000)).toBe('append');
  });

  it("leaves a person's typing to the browser: the first key, keys further apart, editing keys, chords, repeats, IME", () => {
    expect(serialKeyAction(key('A', 1000), atEnd(0), -Infinity)).toBe('browser');
    expect(serialKeyAction(key('A', 1000 + SCAN_DEFAULTS.maxGapMs + 1), atEnd(3), 1000)).toBe('browser');
    for (const k of ['Backspace', 'ArrowLeft', 'Delete', 'Tab', ' ', 'Shift']) expect(serialKeyAction(key(k, 1005), atEnd(3), 1000)).toBe('browser');
    expect(serialKeyAction(key('a', 1005, { modified: true }), atEnd(3), 1000)).toBe('browser');
    expect(serialKeyAction(key('a', 1005, { repeat: true }), atEnd(3), 1000)).toBe('browser');
    expect(serialKeyAction(key('a', 1005, { composing: true }), atEnd(3), 1000)).toBe('browser');
  });

  it('leaves the key to the browser when the caret is inside the text or text is selected', () => {
    expect(serialKeyAction(key('A', 1005), { length: 5, selectionStart: 2, selectionEnd: 2 }, 1000)).toBe('browser');
    expect(serialKeyAction(key('A', 1005), { length: 5, selectionStart: 0, selectionEnd: 5 }, 1000)).toBe('browser');
    expect(serialKeyAction(key('A', 1005), { length: 5, selectionStart: null, selectionEnd: null }, 1000)).toBe('browser');
  });
});
