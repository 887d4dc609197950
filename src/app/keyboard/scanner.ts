// Barcode scanners type like a keyboard: the characters of a serial a few milliseconds apart,
// then Enter. This module recognises such a burst outside text fields and hands the string to a
// registered scan handler instead of letting its keys run shortcuts ('g' then 'u' inside a serial
// must not open User Management).
//
// How: while a scan handler is registered, a plain printable key pressed outside a text field is
// held back. Each further key within `maxGapMs` of the one before (by the keys' own times) is held
// too. With no further key, the held ones are released after `holdMs`: longer than the gap, so a
// browser that hands over a burst's keys late (a loaded machine) does not split the scan. Enter within the
// gap after at least `minLength` held characters is a scan: the handler gets the characters and
// none of the held keys runs a command (nor does the Enter). Anything else releases the held keys
// in order to the normal key dispatcher: the hold passing without a key (a person typing), a key
// with Ctrl/Alt/⌘, a key repeat, a key in a text field or dialog, a non-printable key, an Enter
// after too few characters. So nothing a person types is lost; it only waits up to holdMs (single-key
// shortcuts never wait: see below).
// Without a registered handler nothing is held at all.
//
// Fast typing is not a scan: a burst never starts with a plain single-key shortcut ('/', '?', j,
// k, x): that key runs at once, so `/` followed by fast keys focuses the search box and the keys
// land there, in a text field, where nothing is ever taken as a scan. A dialog that collects
// scans (SCAN_TARGET_ATTR) takes bursts too, so a second scan while it is open is caught, never
// typed onto its buttons.
import { useEffect, useRef } from 'react';

export type ScanOptions = {
  /** Longest pause between two keys of one scan (ms). Scanners: 5-20 ms; people rarely type two keys < 35 ms apart. */
  maxGapMs: number;
  /** Fewest characters before Enter that count as a scan. */
  minLength: number;
  /** How long held keys wait for the next key before they are released as typing (ms). */
  holdMs: number;
};
export const SCAN_DEFAULTS: ScanOptions = { maxGapMs: 35, minLength: 4, holdMs: 150 };

/** What the detector needs to know about one key press. */
export type ScanKey = {
  /** KeyboardEvent.key */
  key: string;
  /** When it was pressed (ms; KeyboardEvent.timeStamp or Date.now()). */
  time: number;
  /** May belong to a scan: no Ctrl/Alt/⌘, not a repeat, not in a text field or dialog, a handler is registered. */
  eligible: boolean;
  /** The key runs a command on its own ('/', '?', j, k, x): it never starts a scan. */
  shortcut?: boolean;
};

/** Marks an element (a dialog) inside which a scanner burst is still a scan. */
export const SCAN_TARGET_ATTR = 'data-scan-target';

/** Whether a key pressed on `target` may belong to a scan: outside text fields and dialogs, or inside a scan target. */
export function scanPlace(target: EventTarget | null, typing: (t: EventTarget | null) => boolean, dialog: (t: EventTarget | null) => boolean): boolean {
  if (typing(target)) return false;
  if (!dialog(target)) return true;
  const el = target as HTMLElement | null;
  return !!el && typeof el.closest === 'function' && !!el.closest(`[${SCAN_TARGET_ATTR}]`);
}

export type ScanVerdict = 'hold' | 'scan' | 'pass';

/** A printable character a scanner sends (space excluded: it scrolls and activates controls). */
export const isScanChar = (key: string) => key.length === 1 && key !== ' ';

/**
 * The timing rule, as a small state machine. `feed` says what to do with each key:
 * 'hold' (keep it back), 'scan' (a scan ended with this Enter: drop it, onScan was called) or
 * 'pass' (handle it normally, after the keys released just before). Held keys come back through
 * `onRelease`, oldest first, when they turn out not to be a scan.
 */
export class ScanDetector<E> {
  private held: E[] = [];
  private chars = '';
  private last = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Keys the hold timer released that ran no command: a key right after them (by its own time) takes them back. */
  private lapsed: { held: E[]; chars: string; last: number } | null = null;
  readonly options: ScanOptions;

  /** `onRelease` answers whether any released key ran a command (then they cannot be taken back). */
  constructor(
    private readonly onScan: (code: string) => void,
    private readonly onRelease: (held: E[]) => boolean | void,
    options: Partial<ScanOptions> = {},
  ) {
    this.options = { ...SCAN_DEFAULTS, ...options };
  }

  /** Keys held back right now. */
  get pending(): number {
    return this.held.length;
  }

  isHeld(item: E): boolean {
    return this.held.includes(item);
  }

  feed(k: ScanKey, item: E): ScanVerdict {
    const { maxGapMs, minLength, holdMs } = this.options;
    // The hold ran out while the browser was late handing over the burst's next key: that key is
    // still within the gap of the released ones by the keys' own times, so they are one scan.
    const lapsed = this.lapsed;
    this.lapsed = null;
    if (lapsed && !this.held.length && k.eligible && (isScanChar(k.key) || k.key === 'Enter') && k.time - lapsed.last <= maxGapMs) {
      this.held = lapsed.held;
      this.chars = lapsed.chars;
      this.last = lapsed.last;
    }
    // A timer can fire late on a busy page; the key times decide.
    const inTime = this.held.length > 0 && k.time - this.last <= maxGapMs;
    if (this.held.length && !inTime) this.release();
    if (!k.eligible) {
      this.release();
      return 'pass';
    }
    if (k.key === 'Enter') {
      if (inTime && this.chars.length >= minLength) {
        const code = this.chars;
        this.clear();
        this.onScan(code);
        return 'scan';
      }
      this.release();
      return 'pass';
    }
    if (!isScanChar(k.key) || (k.shortcut && !this.held.length)) {
      this.release();
      return 'pass';
    }
    this.held.push(item);
    this.chars += k.key;
    this.last = k.time;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.release(true), Math.max(holdMs, maxGapMs + 1));
    return 'hold';
  }

  /** Gives the held keys back (oldest first) and starts afresh. */
  release(byTimer = false) {
    const held = this.held;
    const chars = this.chars;
    const last = this.last;
    this.clear();
    if (!held.length) return;
    const ranCommand = this.onRelease(held) === true;
    if (byTimer && !ranCommand) this.lapsed = { held, chars, last };
  }

  /** Forgets everything without releasing (unmount). */
  dispose() {
    this.clear();
    this.lapsed = null;
  }

  private clear() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.held = [];
    this.chars = '';
  }
}

// ---------------------------------------------------------------- the hook point

/** Gets the scanned string. The most recently registered handler wins (a page can take over from the workspace's). */
export type ScanHandler = (code: string) => void;

const handlers: ScanHandler[] = [];

/** Registers a scan handler; returns the function that removes it. */
export function registerScanHandler(fn: ScanHandler): () => void {
  handlers.push(fn);
  return () => {
    const i = handlers.lastIndexOf(fn);
    if (i >= 0) handlers.splice(i, 1);
  };
}

/** The handler scans go to now, or null (then the key listener holds nothing back). */
export function currentScanHandler(): ScanHandler | null {
  return handlers[handlers.length - 1] ?? null;
}

/** Registers `fn` while the component is mounted (null: none). The latest `fn` is always called. */
export function useScanHandler(fn: ScanHandler | null) {
  const ref = useRef(fn);
  ref.current = fn;
  const on = !!fn;
  useEffect(() => {
    if (!on) return;
    return registerScanHandler((code) => ref.current?.(code));
  }, [on]);
}
