// A hand-held barcode scanner for Chromium tests and benchmarks: a key every `msPerKey` ms, Enter
// after each serial. Key events go through CDP (Input.dispatchKeyEvent) without waiting for each
// answer (in order, on one session), paced by the clock here: a busy machine delays the page, as
// it would with a real scanner, but not the key rate (Playwright's keyboard.type waits for every
// key's round trip, which on a loaded 2-core machine is 30-40 ms per key).

type KeyEvent = {
  type: 'keyDown' | 'keyUp';
  key: string;
  code: string;
  windowsVirtualKeyCode: number;
  text?: string;
  unmodifiedText?: string;
  /** seconds since the epoch: the event's time (KeyboardEvent.timeStamp) */
  timestamp?: number;
};
/** A CDP session of Playwright (@playwright/test or playwright-core). */
type CdpLike = { send(method: 'Input.dispatchKeyEvent', params: KeyEvent): Promise<unknown> };

/** The key event of one character (letters, digits, '-', Enter) as Input.dispatchKeyEvent wants it. */
export function keyOf(ch: string) {
  if (ch === '\r') return { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' };
  if (ch === '-') return { key: '-', code: 'Minus', windowsVirtualKeyCode: 189, text: '-' };
  if (/\d/.test(ch)) return { key: ch, code: `Digit${ch}`, windowsVirtualKeyCode: ch.charCodeAt(0), text: ch };
  if (/[a-z]/i.test(ch)) return { key: ch, code: `Key${ch.toUpperCase()}`, windowsVirtualKeyCode: ch.toUpperCase().charCodeAt(0), text: ch };
  throw new Error(`the scanner has no key for ${JSON.stringify(ch)}`);
}

/** Types each serial and Enter at `msPerKey` ms per key; resolves when the browser took every key. */
export async function scanSerials(cdp: CdpLike, serials: readonly string[], msPerKey = 5) {
  const sent: Promise<unknown>[] = [];
  let due = performance.now();
  // Each key carries the time the scanner pressed it: a browser that takes the events late (a
  // loaded machine) still sees keys 5 ms apart, as the page's scanner-burst rule would from a real one.
  let at = Date.now();
  for (const ch of serials.flatMap((s) => [...s, '\r'])) {
    const k = keyOf(ch);
    sent.push(cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...k, unmodifiedText: k.text, timestamp: at / 1000 }));
    sent.push(
      cdp.send('Input.dispatchKeyEvent', {
        type: 'keyUp',
        key: k.key,
        code: k.code,
        windowsVirtualKeyCode: k.windowsVirtualKeyCode,
        timestamp: (at + 1) / 1000,
      }),
    );
    due += msPerKey;
    at += msPerKey;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  await Promise.all(sent);
}
