// One pane: its tab strip and the tabpanels that adopt the tabs' contents. An empty pane shows
// how to open something.
import type { Pane } from './model';
import { focusPane } from './actions';
import { paneDomId, panelDomId, tabDomId } from './dom';
import { TabStrip } from './tab-strip';
import { TabSlot } from './tab-content';
import { formatKeysText } from '../../../commands/keys';

export function PaneView({ pane, index, focused, paneCount }: { pane: Pane; index: number; focused: boolean; paneCount: number }) {
  const name = paneCount > 1 ? `Pane ${index + 1}` : 'Workspace';
  return (
    <section
      id={paneDomId(pane.id)}
      className="ws-pane"
      data-focused={focused || undefined}
      aria-label={name}
      tabIndex={-1}
      onFocusCapture={() => focusPane(pane.id)}
      onPointerDownCapture={() => focusPane(pane.id)}
    >
      {pane.tabs.length > 0 && <TabStrip pane={pane} label={`${name} tabs`} />}
      <div className="ws-pane-body">
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
