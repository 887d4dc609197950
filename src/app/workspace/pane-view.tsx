// One pane: its tab strip and the tabpanels that adopt the tabs' contents. An empty pane shows
// how to open something.
//
// The focused pane follows the pane being used. Pages render through portals (tab-content.tsx),
// so React's focus and pointer events from a page bubble to the portal's React parent, never to
// this pane: native `focusin` and `pointerdown` listeners on the pane's DOM element (which holds
// the page's DOM) see them all. Clicking or typing in a pane makes it the focused pane, so Alt+W
// and every other pane or tab shortcut acts on it.
import { useEffect, useRef } from 'react';
import type { Pane } from './model';
import { focusPane } from './actions';
import { paneDomId, panelDomId, tabDomId } from './dom';
import { TabStrip } from './tab-strip';
import { TabSlot } from './tab-content';
import { formatKeysText } from '../keyboard/keys';

export function PaneView({ pane, index, focused, paneCount }: { pane: Pane; index: number; focused: boolean; paneCount: number }) {
  const name = paneCount > 1 ? `Pane ${index + 1}` : 'Workspace';
  const ref = useRef<HTMLElement>(null);
  const paneId = pane.id;
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const use = () => focusPane(paneId);
    el.addEventListener('focusin', use);
    el.addEventListener('pointerdown', use, true);
    return () => {
      el.removeEventListener('focusin', use);
      el.removeEventListener('pointerdown', use, true);
    };
  }, [paneId]);
  return (
    <section ref={ref} id={paneDomId(pane.id)} className="ws-pane" data-pane-id={pane.id} data-focused={focused || undefined} aria-label={name} tabIndex={-1}>
      {pane.tabs.length > 0 && <TabStrip pane={pane} label={`${name} tabs`} />}
      {/* Also the pane's dialog layer: the dialogs of its pages open over it (ui/dialog.tsx). */}
      <div className="ws-pane-body" data-dialog-layer="">
        {pane.tabs.map((t) => (
          <TabSlot key={t.id} tabId={t.id} id={panelDomId(t.id)} labelledBy={tabDomId(t.id)} selected={t.id === pane.activeTabId} />
        ))}
        {pane.tabs.length === 0 && (
          <div className="ws-empty">
            <p>Press {formatKeysText('mod+k')} to open something</p>
          </div>
        )}
      </div>
    </section>
  );
}
