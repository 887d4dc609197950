// DOM ids shared by the tab strip, the tab panels and the code that moves keyboard focus.
export const tabDomId = (tabId: string) => `ws-tab-${tabId}`;
export const panelDomId = (tabId: string) => `ws-panel-${tabId}`;
export const paneDomId = (paneId: string) => `ws-pane-${paneId}`;

/** The newest focus move asked for: an older one still waiting for its frame is dropped. */
let newestFocusMove = 0;

/**
 * After React has committed, put keyboard focus on a tab of the strip (or on an empty pane).
 *
 * Only the newest move asked for is made, and only if `wanted()` still says so when it is due. A
 * focus that enters a pane makes it the focused pane (pane-view.tsx), and the move waits for a
 * frame, which comes late on a busy machine: an older move landing after a later command (`g u`
 * in one pane, then Alt+` to another) would take the focused pane back, and a key pressed meanwhile
 * (Alt+, ) would act on the pane the user had left.
 */
export function focusSoon(id: string, wanted: () => boolean = () => true) {
  const move = ++newestFocusMove;
  const run = () => {
    if (move !== newestFocusMove) return; // a later move was asked for
    if (typeof document === 'undefined') return; // the page (or a test's DOM) has gone meanwhile
    if (!wanted()) return;
    const el = document.getElementById(id);
    if (el && document.activeElement !== el) el.focus({ preventScroll: false });
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(run, 0));
  else setTimeout(run, 0);
}

/** The dialog layer of a pane (pane-view.tsx): what is asked about one of its tabs opens over it. */
export function paneDialogLayer(paneId: string): HTMLElement | null {
  if (typeof document === 'undefined') return null;
  return document.getElementById(paneDomId(paneId))?.querySelector<HTMLElement>('[data-dialog-layer]') ?? null;
}
