import { describe, expect, it } from 'vitest';
import * as M from '../../../src/app/workspace/model';
import { resolveHref } from '../../../src/app/workspace/url';

const t = (href: string) => {
  const target = resolveHref(href);
  if (!target) throw new Error(`not a route: ${href}`);
  return target;
};
const open = (s: M.WorkspaceState, href: string, opts?: M.OpenOptions) => M.openTab(s, t(href), opts);
const hrefs = (s: M.WorkspaceState, paneId = s.focusedPaneId) => s.panes[paneId].tabs.map((x) => x.href);
const focused = (s: M.WorkspaceState) => M.focusedTab(s)?.href ?? null;
const panes = (s: M.WorkspaceState) => M.paneOrder(s).map((id) => hrefs(s, id));

describe('open', () => {
  it('adds a tab after the active one and focuses it', () => {
    let s = M.emptyWorkspace();
    s = open(s, '/persons');
    s = open(s, '/customers');
    s = M.focusTab(s, s.panes[s.focusedPaneId].tabs[0].id);
    s = open(s, '/alarm-reports');
    expect(hrefs(s)).toEqual(['/persons', '/alarm-reports', '/customers']);
    expect(focused(s)).toBe('/alarm-reports');
    const tab = M.focusedTab(s)!;
    expect(tab).toMatchObject({ route: 'alarmReports', title: 'Alarm Reports', pinned: false, dirty: false, history: [] });
  });

  it('the same record opened twice focuses the existing tab (in any pane)', () => {
    let s = open(M.emptyWorkspace(), '/persons/edit/abc');
    s = open(s, '/persons');
    s = M.splitPane(s, 'horizontal');
    s = open(s, '/customers');
    const before = Object.values(s.panes).flatMap((p) => p.tabs).length;
    s = open(s, '/persons/edit/abc/'); // trailing slash: same record
    expect(Object.values(s.panes).flatMap((p) => p.tabs).length).toBe(before);
    expect(focused(s)).toBe('/persons/edit/abc');
    expect(s.focusedPaneId).toBe(M.paneOrder(s)[0]);
  });

  it('opened beside, the same record gets a second tab in the other pane, splitting when needed', () => {
    let s = open(M.emptyWorkspace(), '/persons/edit/abc');
    s = open(s, '/persons/edit/abc', { beside: true });
    expect(M.paneOrder(s)).toHaveLength(2);
    expect(panes(s)).toEqual([['/persons/edit/abc'], ['/persons/edit/abc']]);
    expect(s.focusedPaneId).toBe(M.paneOrder(s)[1]);
    // beside again from the second pane goes back to the first, where it already is: focus, no third tab
    s = open(s, '/persons/edit/abc', { beside: true });
    expect(panes(s)).toEqual([['/persons/edit/abc'], ['/persons/edit/abc']]);
    expect(s.focusedPaneId).toBe(M.paneOrder(s)[0]);
  });
});

describe('close and reopen', () => {
  it('closing selects the right neighbour, else the left; reopen restores the tab at its place', () => {
    let s = M.emptyWorkspace();
    for (const h of ['/persons', '/customers', '/alarm-reports']) s = open(s, h);
    const mid = s.panes[s.focusedPaneId].tabs[1];
    s = M.focusTab(s, mid.id);
    s = M.closeTab(s, mid.id);
    expect(hrefs(s)).toEqual(['/persons', '/alarm-reports']);
    expect(focused(s)).toBe('/alarm-reports');
    s = M.closeTab(s, M.focusedTab(s)!.id);
    expect(focused(s)).toBe('/persons');
    expect(s.closed.map((c) => c.tab.href)).toEqual(['/customers', '/alarm-reports']);
    s = M.reopenClosed(s);
    expect(focused(s)).toBe('/alarm-reports');
    s = M.reopenClosed(s);
    expect(hrefs(s)).toEqual(['/persons', '/customers', '/alarm-reports']);
    expect(focused(s)).toBe('/customers');
    expect(s.closed).toHaveLength(0);
    expect(M.reopenClosed(s)).toBe(s);
  });

  it('closing the last tab leaves the only pane empty; in a split the emptied pane goes away', () => {
    let s = open(M.emptyWorkspace(), '/persons');
    s = M.closeTab(s, M.focusedTab(s)!.id);
    expect(M.paneOrder(s)).toHaveLength(1);
    expect(hrefs(s)).toEqual([]);
    expect(M.focusedTab(s)).toBeNull();

    s = open(s, '/persons');
    s = open(s, '/customers', { beside: true });
    expect(M.paneOrder(s)).toHaveLength(2);
    s = M.closeTab(s, M.focusedTab(s)!.id);
    expect(M.paneOrder(s)).toHaveLength(1);
    expect(s.layout.type).toBe('pane');
    expect(focused(s)).toBe('/persons');
    // reopening a tab whose pane is gone puts it in the focused pane
    s = M.reopenClosed(s);
    expect(hrefs(s)).toEqual(['/persons', '/customers']);
  });

  it('keeps at most MAX_CLOSED closed tabs and stores them clean', () => {
    let s = M.emptyWorkspace();
    for (let i = 0; i < M.MAX_CLOSED + 5; i++) {
      s = open(s, `/persons/edit/p${i}`);
      s = M.setTabDirty(s, M.focusedTab(s)!.id, true);
      s = M.closeTab(s, M.focusedTab(s)!.id);
    }
    expect(s.closed).toHaveLength(M.MAX_CLOSED);
    expect(s.closed.at(-1)!.tab.href).toBe(`/persons/edit/p${M.MAX_CLOSED + 4}`);
    expect(s.closed.every((c) => !c.tab.dirty)).toBe(true);
  });
});

describe('panes', () => {
  it('split right then down builds a nested layout; focus-next walks panes in reading order', () => {
    let s = open(M.emptyWorkspace(), '/persons');
    const first = s.focusedPaneId;
    s = M.splitPane(s, 'horizontal');
    const second = s.focusedPaneId;
    s = M.splitPane(s, 'vertical');
    const third = s.focusedPaneId;
    expect(M.paneOrder(s)).toEqual([first, second, third]);
    expect(s.layout).toMatchObject({ type: 'split', orientation: 'horizontal', sizes: [50, 50] });
    const right = (s.layout as Extract<M.LayoutNode, { type: 'split' }>).children[1];
    expect(right).toMatchObject({ type: 'split', orientation: 'vertical', sizes: [50, 50] });
    s = M.focusNextPane(s);
    expect(s.focusedPaneId).toBe(first);
    s = M.focusNextPane(s);
    expect(s.focusedPaneId).toBe(second);
    // splitting right again in the same direction adds a sibling and halves the pane's share
    s = M.focusPaneById(s, first);
    s = M.splitPane(s, 'horizontal');
    expect(s.layout).toMatchObject({ type: 'split', orientation: 'horizontal', sizes: [25, 25, 50] });
  });

  it('moves a tab to the other pane (splitting when alone) and removes a pane it empties', () => {
    let s = open(M.emptyWorkspace(), '/persons');
    s = open(s, '/customers');
    s = M.moveTabToOtherPane(s);
    expect(panes(s)).toEqual([['/persons'], ['/customers']]);
    expect(focused(s)).toBe('/customers');
    s = M.moveTabToOtherPane(s);
    expect(panes(s)).toEqual([['/persons', '/customers']]);
    expect(focused(s)).toBe('/customers');
    // the only tab of the only pane has nowhere to go
    const single = open(M.emptyWorkspace(), '/persons');
    expect(M.moveTabToOtherPane(single)).toBe(single);
  });

  it('grows and shrinks the focused pane within limits; sizes from the separators are kept', () => {
    let s = open(M.emptyWorkspace(), '/persons');
    s = M.splitPane(s, 'horizontal');
    s = M.resizeFocusedPane(s, 10);
    const split = () => s.layout as Extract<M.LayoutNode, { type: 'split' }>;
    expect(split().sizes[0]).toBeCloseTo(40);
    expect(split().sizes[1]).toBeCloseTo(60);
    for (let i = 0; i < 20; i++) s = M.resizeFocusedPane(s, 10);
    expect(split().sizes[1]).toBeCloseTo(100 - M.MIN_PANE_SIZE);
    s = M.setSplitSizes(s, split().id, [30, 70]);
    expect(split().sizes).toEqual([30, 70]);
    expect(M.setSplitSizes(s, split().id, [30, 70])).toBe(s);
  });
});

describe('tabs', () => {
  it('switches to tab N and 9 = last; cycles with wrap-around', () => {
    let s = M.emptyWorkspace();
    for (const h of ['/persons', '/customers', '/alarm-reports']) s = open(s, h);
    expect(focused(M.switchToTab(s, 1))).toBe('/persons');
    expect(focused(M.switchToTab(s, 2))).toBe('/customers');
    expect(focused(M.switchToTab(s, 9))).toBe('/alarm-reports');
    expect(M.switchToTab(s, 5)).toBe(s);
    expect(focused(M.cycleTab(s, 1))).toBe('/persons');
    expect(focused(M.cycleTab(s, -1))).toBe('/customers');
  });

  it('pinning moves the tab to the pinned group at the front; new tabs open after it', () => {
    let s = M.emptyWorkspace();
    for (const h of ['/persons', '/customers', '/alarm-reports']) s = open(s, h);
    s = M.togglePin(s); // pins /alarm-reports
    expect(hrefs(s)).toEqual(['/alarm-reports', '/persons', '/customers']);
    expect(M.focusedTab(s)!.pinned).toBe(true);
    s = open(s, '/asset-management');
    expect(hrefs(s)).toEqual(['/alarm-reports', '/asset-management', '/persons', '/customers']);
    s = M.focusTab(s, s.panes[s.focusedPaneId].tabs[0].id);
    s = M.togglePin(s);
    expect(s.panes[s.focusedPaneId].tabs.some((x) => x.pinned)).toBe(false);
  });

  it('sets title and dirty; navigate keeps history and back walks it', () => {
    let s = open(M.emptyWorkspace(), '/persons');
    const id = M.focusedTab(s)!.id;
    s = M.setTabTitle(s, id, 'Manage 20 Users');
    expect(M.setTabTitle(s, id, 'Manage 20 Users')).toBe(s);
    s = M.setTabDirty(s, id, true);
    expect(M.focusedTab(s)).toMatchObject({ title: 'Manage 20 Users', dirty: true });
    s = M.navigateTab(s, id, t('/persons/edit/abc'));
    expect(M.focusedTab(s)).toMatchObject({
      id,
      href: '/persons/edit/abc',
      route: 'personEdit',
      params: { userId: 'abc' },
      title: 'Edit user',
      dirty: false,
      history: ['/persons'],
    });
    const back = M.backTab(s, id, resolveHref)!;
    expect(M.focusedTab(back)).toMatchObject({ id, href: '/persons', history: [] });
    expect(M.backTab(back, id, resolveHref)).toBeNull();
  });
});

describe('persist and restore', () => {
  it('round-trips panes, tabs, sizes, focus and closed tabs; dirty is not kept', () => {
    let s = open(M.emptyWorkspace(), '/persons');
    s = M.setTabDirty(s, M.focusedTab(s)!.id, true);
    s = M.togglePin(s);
    s = open(s, '/persons/edit/abc', { beside: true });
    s = open(s, '/customers');
    s = M.closeTab(s, M.focusedTab(s)!.id);
    s = M.setSplitSizes(s, s.layout.id, [35, 65]);
    const restored = M.restoreWorkspace(JSON.parse(M.serialiseWorkspace(s)), resolveHref)!;
    expect(panes(restored)).toEqual(panes(s));
    expect(restored.focusedPaneId).toBe(s.focusedPaneId);
    expect(focused(restored)).toBe('/persons/edit/abc');
    expect((restored.layout as Extract<M.LayoutNode, { type: 'split' }>).sizes).toEqual([35, 65]);
    expect(restored.closed.map((c) => c.tab.href)).toEqual(['/customers']);
    const first = restored.panes[M.paneOrder(restored)[0]].tabs[0];
    expect(first).toMatchObject({ pinned: true, dirty: false });
  });

  it('drops tabs of unknown routes and panes left empty; rejects garbage', () => {
    let s = open(M.emptyWorkspace(), '/persons');
    s = open(s, '/customers', { beside: true });
    const raw = JSON.parse(M.serialiseWorkspace(s));
    const secondPane = M.paneOrder(s)[1];
    raw.panes[secondPane].tabs[0].href = '/no-such-screen';
    const restored = M.restoreWorkspace(raw, resolveHref)!;
    expect(panes(restored)).toEqual([['/persons']]);
    expect(restored.layout.type).toBe('pane');
    expect(restored.focusedPaneId).toBe(M.paneOrder(restored)[0]);
    expect(M.restoreWorkspace(null, resolveHref)).toBeNull();
    expect(M.restoreWorkspace({ version: 2 }, resolveHref)).toBeNull();
    expect(M.restoreWorkspace({ version: 1, layout: { type: 'pane', id: 'x' }, panes: {} }, resolveHref)).toBeNull();
  });
});
