// DOM ids shared by the tab strip, the tab panels and the code that moves keyboard focus.
export const tabDomId = (tabId: string) => `ws-tab-${tabId}`;
export const panelDomId = (tabId: string) => `ws-panel-${tabId}`;
export const paneDomId = (paneId: string) => `ws-pane-${paneId}`;

/** After React has committed, put keyboard focus on a tab of the strip (or on an empty pane). */
export function focusSoon(id: string) {
  const run = () => {
    if (typeof document === 'undefined') return; // the page (or a test's DOM) has gone meanwhile
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
