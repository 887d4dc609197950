import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { ScanDetector, registerScanHandler, currentScanHandler, type ScanKey } from '../../../src/app/keyboard/scanner';
import { KeyListener } from '../../../src/app/keyboard/key-listener';
import { COMMANDS } from '../../../commands/index';
import { appStore } from '../../../src/app/state/store';
import { fakeCommandContext } from '../../helpers/command-context';

// The timing rule on its own: keys fed with explicit times, the release timer on fake timers.
describe('scan detector (timing rule)', () => {
  let scans: string[];
  let released: string[][];
  let d: ScanDetector<string>;
  let t: number;
  beforeEach(() => {
    vi.useFakeTimers();
    scans = [];
    released = [];
    d = new ScanDetector<string>(
      (c) => scans.push(c),
      (held) => void released.push(held),
      { maxGapMs: 35, minLength: 4, holdMs: 150 },
    );
    t = 1000;
  });
  afterEach(() => vi.useRealTimers());

  const key = (k: string, gap: number, eligible = true): ScanKey => {
    t += gap;
    return { key: k, time: t, eligible };
  };
  /** Feeds each character `gap` ms after the previous one (timers advance as real time would). */
  const type = (text: string, gap: number, eligible = true) =>
    [...text].map((ch) => {
      vi.advanceTimersByTime(gap);
      return d.feed(key(ch, gap, eligible), ch);
    });

  it('a fast burst ending in Enter is a scan: the handler gets the string, no key is released', () => {
    expect(type('SN12345', 8)).toEqual(Array(7).fill('hold'));
    vi.advanceTimersByTime(8);
    expect(d.feed(key('Enter', 8), 'Enter')).toBe('scan');
    expect(scans).toEqual(['SN12345']);
    vi.advanceTimersByTime(1000);
    expect(released).toEqual([]);
    expect(d.pending).toBe(0);
  });

  it('slow typing is no scan: each key is released on its own after the gap, Enter passes', () => {
    type('gu12', 120);
    vi.advanceTimersByTime(120);
    expect(d.feed(key('Enter', 120), 'Enter')).toBe('pass');
    expect(scans).toEqual([]);
    expect(released).toEqual([['g'], ['u'], ['1'], ['2']]);
  });

  it('a burst without Enter is released in order once the hold has passed', () => {
    type('abcdef', 5);
    expect(released).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(released).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(released).toEqual([['a', 'b', 'c', 'd', 'e', 'f']]);
    expect(scans).toEqual([]);
  });

  it('a burst the browser hands over late (60 ms between keys on the clock, 5 ms apart by their own times) is still one scan', () => {
    for (const ch of 'SC0000123') {
      vi.advanceTimersByTime(60);
      expect(d.feed(key(ch, 5), ch)).toBe('hold');
    }
    vi.advanceTimersByTime(60);
    expect(d.feed(key('Enter', 5), 'Enter')).toBe('scan');
    expect(scans).toEqual(['SC0000123']);
    expect(released).toEqual([]);
  });

  it('keys the hold released while the browser was late are taken back by the next key of the burst (by its own time): one scan', () => {
    type('B14', 5);
    vi.advanceTimersByTime(200); // the hold runs out: released as typing (they ran no command)
    expect(released).toEqual([['B', '1', '4']]);
    // the next keys arrive late on the clock but 5 ms after the last one by their own times
    for (const ch of '01091657') expect(d.feed(key(ch, 5), ch)).toBe('hold');
    expect(d.feed(key('Enter', 5), 'Enter')).toBe('scan');
    expect(scans).toEqual(['B1401091657']);
  });

  it('released keys that ran a command, or a key after a real pause, are not taken back', () => {
    const ran = new ScanDetector<string>(
      (c) => scans.push(c),
      () => true,
      { maxGapMs: 35, minLength: 4, holdMs: 150 },
    );
    for (const ch of 'gd') ran.feed(key(ch, 5), ch);
    vi.advanceTimersByTime(200);
    for (const ch of 'SN1234') ran.feed(key(ch, 5), ch);
    ran.feed(key('Enter', 5), 'Enter');
    expect(scans).toEqual(['SN1234']);
    type('AB', 5);
    vi.advanceTimersByTime(200);
    type('CDEF', 100); // a person: 100 ms later by the key times
    expect(d.feed(key('Enter', 5), 'Enter')).toBe('pass');
    expect(scans).toEqual(['SN1234']);
  });

  it('a burst too short for a serial is released before its Enter passes', () => {
    type('ab', 5);
    vi.advanceTimersByTime(5);
    expect(d.feed(key('Enter', 5), 'Enter')).toBe('pass');
    expect(released).toEqual([['a', 'b']]);
    expect(scans).toEqual([]);
  });

  it('Enter after a pause longer than the gap is no scan, even when the timer was late', () => {
    type('ABCDEF', 5);
    // The timer has not run (busy page), but the key times tell.
    expect(d.feed(key('Enter', 60), 'Enter')).toBe('pass');
    expect(released).toEqual([['A', 'B', 'C', 'D', 'E', 'F']]);
    expect(scans).toEqual([]);
  });

  it('keys in a text field (not eligible) are never held: a burst there is ignored', () => {
    expect(type('SN12345', 5, false)).toEqual(Array(7).fill('pass'));
    expect(d.feed(key('Enter', 5, false), 'Enter')).toBe('pass');
    expect(scans).toEqual([]);
    expect(released).toEqual([]);
  });

  it('a modified or non-printable key ends the burst and releases it first', () => {
    type('abcd', 5);
    expect(d.feed(key('ArrowDown', 5), 'ArrowDown')).toBe('pass');
    expect(released).toEqual([['a', 'b', 'c', 'd']]);
    type('wxyz', 5);
    expect(d.feed(key('w', 5, false), 'alt+w')).toBe('pass'); // e.g. Alt+W: not eligible
    expect(released.at(-1)).toEqual(['w', 'x', 'y', 'z']);
  });

  it('a burst never starts with a single-key shortcut: the key passes at once and the keys after it are no scan of it', () => {
    expect(d.feed({ ...key('/', 5), shortcut: true }, '/')).toBe('pass');
    expect(d.pending).toBe(0);
    // inside a burst the same key is just a character of the serial
    type('AB', 5);
    expect(d.feed({ ...key('x', 5), shortcut: true }, 'x')).toBe('hold');
    type('12', 5);
    vi.advanceTimersByTime(5);
    expect(d.feed(key('Enter', 5), 'Enter')).toBe('scan');
    expect(scans).toEqual(['ABx12']);
  });
});

describe('scan handler hook point', () => {
  it('the latest registered handler gets scans; unregistering restores the previous one', () => {
    const a = vi.fn();
    const b = vi.fn();
    const offA = registerScanHandler(a);
    const offB = registerScanHandler(b);
    expect(currentScanHandler()).toBe(b);
    offB();
    expect(currentScanHandler()).toBe(a);
    offA();
    expect(currentScanHandler()).toBeNull();
  });
});

// The key listener feeds the detector: a scan reaches the handler and runs no shortcut.
describe('key listener with a scan handler', () => {
  const fakeContext = () => fakeCommandContext({ store: appStore, list: null });
  let off: (() => void) | null = null;
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    off?.();
    off = null;
    cleanup();
    vi.useRealTimers();
  });

  function setup() {
    const ctx = fakeContext();
    const onScan = vi.fn();
    off = registerScanHandler(onScan);
    render(
      <div>
        <KeyListener commands={COMMANDS} makeContext={() => ctx} />
        <input aria-label="Serial" />
        <button>Save</button>
        <div role="dialog" aria-label="Plain dialog">
          <button>Confirm</button>
        </div>
        <div role="dialog" aria-label="Scan offer" data-scan-target="">
          <button>Add to bulk list</button>
        </div>
      </div>,
    );
    return { ctx, onScan };
  }

  const letterCode = (ch: string) => (/[a-z]/i.test(ch) ? `Key${ch.toUpperCase()}` : /\d/.test(ch) ? `Digit${ch}` : '');
  /**
   * A keydown stamped with the fake clock's time. jsdom stamps an event with its own realm's
   * clock, which fake timers do not move: the detector would see the real gaps between the test's
   * keys (none, or a stall of a loaded machine that splits a scan) instead of the gaps the test sets.
   */
  function keyDown(target: Element, init: KeyboardEventInit) {
    const e = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, composed: true, ...init });
    Object.defineProperty(e, 'timeStamp', { value: Date.now() });
    return fireEvent(target, e);
  }
  /** Presses keys on `target`, `gap` ms apart (fake clock: the event times follow it). */
  function press(target: Element, text: string, gap: number) {
    for (const ch of text) {
      act(() => vi.advanceTimersByTime(gap));
      keyDown(target, { key: ch, code: letterCode(ch) });
    }
  }
  const enter = (target: Element) => keyDown(target, { key: 'Enter', code: 'Enter' });

  it('a scanner burst outside a field goes to the handler, and its "g u" opens nothing', () => {
    const { ctx, onScan } = setup();
    press(document.body, 'GU1234', 6);
    act(() => vi.advanceTimersByTime(6));
    const notPrevented = enter(document.body);
    expect(notPrevented).toBe(false); // the scan's Enter is consumed
    expect(onScan).toHaveBeenCalledWith('GU1234');
    act(() => vi.advanceTimersByTime(2000));
    expect(ctx.openRoute).not.toHaveBeenCalled();
  });

  it('the same keys typed at human speed run the shortcut (after the short hold) and scan nothing', () => {
    const { ctx, onScan } = setup();
    press(document.body, 'gu', 150);
    act(() => vi.advanceTimersByTime(160));
    expect(ctx.openRoute).toHaveBeenCalledWith('/persons', { beside: false, focus: true });
    expect(onScan).not.toHaveBeenCalled();
  });

  it('a fast "g u" without Enter is not lost: released, it still runs the shortcut', () => {
    const { ctx, onScan } = setup();
    press(document.body, 'gu', 10);
    expect(ctx.openRoute).not.toHaveBeenCalled(); // held while it might be a scan
    act(() => vi.advanceTimersByTime(160));
    expect(ctx.openRoute).toHaveBeenCalledTimes(1);
    expect(onScan).not.toHaveBeenCalled();
  });

  it("a burst typed into a text field is the field's: no scan", () => {
    const { onScan } = setup();
    const field = document.querySelector('input')!;
    press(field, 'SN12345', 5);
    enter(field);
    act(() => vi.advanceTimersByTime(100));
    expect(onScan).not.toHaveBeenCalled();
  });

  it('a scan ending on a focused button does not press it', () => {
    const { onScan } = setup();
    const button = document.querySelector('button')!;
    button.focus();
    press(button, 'AB1234', 5);
    act(() => vi.advanceTimersByTime(5));
    expect(enter(button)).toBe(false);
    expect(onScan).toHaveBeenCalledWith('AB1234');
  });

  it('"/" then fast keys outside a field: "/" is not held, so the keys are no scan of "/…"', () => {
    const { onScan } = setup();
    act(() => vi.advanceTimersByTime(100));
    const slash = keyDown(document.body, { key: '/', code: 'Slash' });
    press(document.body, '10076', 10);
    act(() => vi.advanceTimersByTime(10));
    enter(document.body);
    act(() => vi.advanceTimersByTime(100));
    expect(slash).toBe(true);
    expect(onScan).not.toHaveBeenCalledWith('/10076');
  });

  it('a scan inside a dialog that collects scans is a scan, and its Enter presses no button there', () => {
    const { onScan } = setup();
    const add = document.querySelector('[data-scan-target] button') as HTMLButtonElement;
    const clicked = vi.fn();
    add.addEventListener('click', clicked);
    add.focus();
    press(add, 'SC0000123', 5);
    act(() => vi.advanceTimersByTime(5));
    expect(enter(add)).toBe(false);
    expect(onScan).toHaveBeenCalledWith('SC0000123');
    expect(clicked).not.toHaveBeenCalled();
  });

  it('any other dialog keeps its keys: no scan there', () => {
    const { onScan } = setup();
    const confirm = document.querySelector('[aria-label="Plain dialog"] button') as HTMLButtonElement;
    press(confirm, 'SC0000123', 5);
    enter(confirm);
    act(() => vi.advanceTimersByTime(100));
    expect(onScan).not.toHaveBeenCalled();
  });

  it('without a registered handler nothing is held', () => {
    const ctx = fakeContext();
    render(<KeyListener commands={COMMANDS} makeContext={() => ctx} />);
    press(document.body, 'gu', 5);
    expect(ctx.openRoute).toHaveBeenCalledTimes(1); // at once, no hold
  });
});
