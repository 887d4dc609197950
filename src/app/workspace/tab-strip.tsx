// A pane's tabs, following the WAI-ARIA tabs pattern: one tablist per pane, roving tabindex,
// ←/→ move between tabs (selection follows focus), Home/End jump, Delete closes. Each tab shows
// its title, a dot when it has unsaved changes and a pin when pinned; the close button sits next
// to the tab (not inside it) and is left out of the Tab order — Delete does the same.
// The strip scrolls sideways: the active tab is always scrolled into view, and a count at either
// end says how many tabs are out of sight there (clicking it scrolls that way).
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { tabLabel, type Pane } from './model';
import { closeTab, focusPane, selectTab } from './actions';
import { focusSoon, panelDomId, tabDomId } from './dom';

/** Tabs of the strip wholly or partly out of sight on the left (before) and on the right (after). */
export function hiddenTabs(list: HTMLElement): { before: number; after: number } {
  const left = list.scrollLeft;
  const right = left + list.clientWidth;
  let before = 0;
  let after = 0;
  if (list.scrollWidth <= list.clientWidth + 1) return { before, after };
  for (const el of list.querySelectorAll<HTMLElement>('.ws-tab-wrap')) {
    if (el.offsetLeft < left - 1) before += 1;
    else if (el.offsetLeft + el.offsetWidth > right + 1) after += 1;
  }
  return { before, after };
}

export function TabStrip({ pane, label }: { pane: Pane; label: string }) {
  const listRef = useRef<HTMLDivElement>(null);
  const [hidden, setHidden] = useState({ before: 0, after: 0 });
  const measure = useCallback(() => {
    const el = listRef.current;
    if (!el) return;
    const next = hiddenTabs(el);
    setHidden((h) => (h.before === next.before && h.after === next.after ? h : next));
  }, []);

  // The active tab is always in view (a tab opened or chosen with Alt+9 may sit past the edge).
  // Not while the strip mounts: reading the layout then would lay out the whole workspace ahead of
  // its first paint, on the start-up's path; the ResizeObserver's first report, after that
  // layout, does it instead.
  const mounting = useRef(true);
  const activeTabId = useRef(pane.activeTabId);
  useLayoutEffect(() => {
    activeTabId.current = pane.activeTabId;
    if (mounting.current || !pane.activeTabId) return;
    revealTab(pane.activeTabId);
    measure();
  }, [pane.activeTabId, measure]);
  useLayoutEffect(() => {
    if (!mounting.current) measure();
  }, [pane.tabs, measure]);
  useEffect(() => {
    mounting.current = false;
    const el = listRef.current;
    if (!el) return;
    el.addEventListener('scroll', measure, { passive: true });
    let revealed = false;
    const laidOut = () => {
      if (!revealed && activeTabId.current) revealTab(activeTabId.current);
      revealed = true;
      measure();
    };
    const ro = typeof ResizeObserver === 'function' ? new ResizeObserver(laidOut) : null;
    if (ro) ro.observe(el);
    else laidOut();
    return () => {
      el.removeEventListener('scroll', measure);
      ro?.disconnect();
    };
  }, [measure]);
  const scrollBy = (dir: 1 | -1) => {
    const el = listRef.current;
    el?.scrollBy?.({ left: dir * Math.max(120, el.clientWidth * 0.8), behavior: 'smooth' });
  };

  const move = (toIndex: number) => {
    const t = pane.tabs[(toIndex + pane.tabs.length) % pane.tabs.length];
    if (!t) return;
    // The tab element exists already (only its tabindex changes), so focus moves at once and
    // the next key press starts from the right tab even before React re-renders.
    document.getElementById(tabDomId(t.id))?.focus();
    selectTab(t.id);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>, index: number, tabId: string) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    switch (e.key) {
      case 'ArrowRight':
        move(index + 1);
        break;
      case 'ArrowLeft':
        move(index - 1);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(pane.tabs.length - 1);
        break;
      case 'Delete':
        void closeTab(tabId).then((closed) => closed && focusSoonAfterClose(pane, index));
        break;
      case 'Enter':
      case ' ':
        selectTab(tabId);
        break;
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
  };

  const onAuxClick = (e: MouseEvent, tabId: string) => {
    if (e.button === 1) {
      e.preventDefault();
      void closeTab(tabId);
    }
  };

  return (
    <div className="ws-tabbar" data-overflow-before={hidden.before || undefined} data-overflow-after={hidden.after || undefined}>
      {hidden.before > 0 && (
        <button
          type="button"
          className="ws-tab-more ws-tab-more--before"
          tabIndex={-1}
          onClick={() => scrollBy(-1)}
          aria-label={`${hidden.before} more ${hidden.before === 1 ? 'tab' : 'tabs'} to the left`}
          title="Scroll tabs left"
        >
          ‹ {hidden.before}
        </button>
      )}
      <div ref={listRef} role="tablist" aria-label={label} aria-orientation="horizontal" className="ws-tabstrip">
        {pane.tabs.map((t, i) => {
          const selected = t.id === pane.activeTabId;
          return (
            <div role="presentation" className="ws-tab-wrap" data-selected={selected || undefined} data-pinned={t.pinned || undefined} key={t.id}>
              <div
                role="tab"
                id={tabDomId(t.id)}
                aria-selected={selected}
                aria-controls={panelDomId(t.id)}
                tabIndex={selected ? 0 : -1}
                className="ws-tab"
                title={t.title === tabLabel(t.title) ? t.href : `${t.title} — ${t.href}`}
                onClick={() => {
                  focusPane(pane.id);
                  selectTab(t.id);
                }}
                onAuxClick={(e) => onAuxClick(e, t.id)}
                onKeyDown={(e) => onKeyDown(e, i, t.id)}
              >
                {t.pinned && (
                  <svg className="ws-tab-pin" width="12" height="12" viewBox="0 0 24 24" fill="currentColor" role="img" aria-label="Pinned">
                    <path d="M16 3l5 5-3 1-4 4 1 5-2 2-4-4-5 5-1-1 5-5-4-4 2-2 5 1 4-4z" />
                  </svg>
                )}
                <span className="ws-tab-title">{tabLabel(t.title)}</span>
                {t.dirty && (
                  <span className="ws-tab-dirty" role="img" aria-label="Unsaved changes">
                    ●
                  </span>
                )}
              </div>
              {/* A mouse target only: a tablist holds tabs alone, and the keyboard closes a tab with Delete. */}
              <button
                type="button"
                className="ws-tab-close"
                tabIndex={-1}
                aria-hidden="true"
                aria-label={`Close ${tabLabel(t.title)}`}
                title="Close (Delete)"
                onClick={(e) => {
                  e.stopPropagation();
                  void closeTab(t.id);
                }}
              >
                ×
              </button>
            </div>
          );
        })}
      </div>
      {hidden.after > 0 && (
        <button
          type="button"
          className="ws-tab-more ws-tab-more--after"
          tabIndex={-1}
          onClick={() => scrollBy(1)}
          aria-label={`${hidden.after} more ${hidden.after === 1 ? 'tab' : 'tabs'} to the right`}
          title="Scroll tabs right"
        >
          {hidden.after} ›
        </button>
      )}
    </div>
  );
}

/** Scrolls the tab into view, to the nearest edge. */
function revealTab(tabId: string) {
  document.getElementById(tabDomId(tabId))?.parentElement?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
}

/** After Delete closed a tab, keep keyboard focus in the strip on the tab that took its place. */
function focusSoonAfterClose(pane: Pane, index: number) {
  const rest = pane.tabs.filter((_, i) => i !== index);
  const next = rest[Math.min(index, rest.length - 1)];
  if (next) focusSoon(tabDomId(next.id));
}
