import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeToken, installDomGaps, renderWithApp, resetAll, signIn } from './helpers';
import { at } from '../../helpers/lists';
import { appStore } from '../../../src/app/state/store';
import { currentUserAtom, sessionAtom, storeIssuedSession } from '../../../src/app/state/session';
import { preloadInitialViews, Workspace } from '../../../src/app/workspace/workspace';
import { focusedTabAtom, storageKey, workspaceAtom } from '../../../src/app/workspace/state';
import * as M from '../../../src/app/workspace/model';
import { closeTab, focusNextPane, openRoute, splitPane } from '../../../src/app/workspace/actions';
import { resolveHref } from '../../../src/app/workspace/url';
import { NOT_AVAILABLE_TEXT } from '../../../src/app/workspace/panels';
import { VIEWS } from '../../../src/app/workspace/views';
import { ROUTES, getHref, type RouteId } from '../../../src/app/paths';
import { confirm } from '../../../src/app/ui/confirm-dialog';
import { MSG } from '../../../src/shared/messages';
import { P, ALL_PERMISSIONS } from '../../../src/shared/permissions';
import { COMMANDS } from '../../../commands/index';
import { http } from '../../../src/app/api/http';
import { START_REQUESTS_KEY } from '../../../src/app/api/early-requests';

const prefetchAssets = vi.hoisted(() => vi.fn());

// Fake pages: they use the tab contract like the real ones and count their mounts.
vi.mock('../../../src/app/features/persons/person-list-page', async () => {
  const React = await import('react');
  const { useTab } = await import('../../../src/app/workspace/tab-context');
  return {
    PersonListPage: function FakeList() {
      const tab = useTab();
      React.useEffect(() => {
        (globalThis as { listMounts?: number }).listMounts = ((globalThis as { listMounts?: number }).listMounts ?? 0) + 1;
        tab.setTitle('Manage 3 Users');
      }, []); // eslint-disable-line react-hooks/exhaustive-deps
      return React.createElement(
        'div',
        null,
        React.createElement('label', null, 'List filter', React.createElement('input', { 'aria-label': 'List filter' })),
        React.createElement('button', { onClick: () => tab.setDirty(true) }, 'Make dirty'),
      );
    },
  };
});
vi.mock('../../../src/app/features/persons/person-form-page', async () => {
  const React = await import('react');
  const { useTab } = await import('../../../src/app/workspace/tab-context');
  return {
    PersonFormPage: function FakeForm() {
      const tab = useTab();
      React.useEffect(() => tab.setTitle(tab.params.userId ? `Edit ${tab.params.userId}` : 'Add new user'), [tab]);
      return React.createElement('p', null, `form for ${tab.params.userId ?? 'new'}`);
    },
  };
});
vi.mock('../../../src/app/features/assets/asset-list-page', async () => {
  const React = await import('react');
  return { AssetListPage: () => React.createElement('p', null, 'asset list page'), prefetchAssetList: prefetchAssets };
});
vi.mock('../../../src/app/ui/confirm-dialog', () => ({ confirm: vi.fn(async () => true) }));

beforeAll(installDomGaps);
beforeEach(() => {
  (globalThis as { listMounts?: number }).listMounts = 0;
  vi.mocked(confirm).mockReset().mockResolvedValue(true);
});
afterEach(cleanup);

const tabs = (pane?: HTMLElement) => (pane ? within(pane) : screen).getAllByRole('tab');
const selectedTab = () => screen.getAllByRole('tab', { selected: true });

function start(path: string, permissions: readonly string[] = ALL_PERMISSIONS) {
  resetAll(path);
  signIn('user-1', permissions);
  return renderWithApp(<Workspace commands={COMMANDS} />);
}

describe('the pages shown first load beside the current user', () => {
  /** The pages preloadInitialViews started loading (one entry per page: the add and edit routes share theirs). */
  async function preloaded() {
    const spies = [...new Set(Object.values(VIEWS))].map((v) => [v, vi.spyOn(v, 'preload')] as const);
    await preloadInitialViews();
    const hit = new Set(spies.filter(([, spy]) => spy.mock.calls.length > 0).map(([v]) => v));
    for (const [, spy] of spies) spy.mockRestore();
    return hit;
  }

  it("the saved layout's active tab of each pane, and the deep link", async () => {
    let s = M.emptyWorkspace();
    s = M.openTab(s, resolveHref('/persons')!);
    s = M.openTab(s, resolveHref('/persons/edit/abc')!, { beside: true });
    resetAll('/asset-management');
    localStorage.setItem(storageKey('user-1'), M.serialiseWorkspace(s));
    signIn('user-1');
    expect(await preloaded()).toEqual(new Set([VIEWS.assets, VIEWS.personEdit, VIEWS.persons]));
  });

  it('on the sign-in page: the landing area (what the sign-in opens), with the permission the token grants', async () => {
    resetAll('/login');
    signIn('user-1', [P.HasAccess, P.PersonListView]);
    expect(await preloaded()).toEqual(new Set([VIEWS.persons]));
  });

  it('nothing before a sign-in', async () => {
    resetAll('/login');
    appStore.set(sessionAtom, null);
    expect((await preloaded()).size).toBe(0);
  });

  it("the shown pages' data at once, with the tab's link, before the server has answered for the user", async () => {
    resetAll('/asset-management?page=2');
    appStore.set(currentUserAtom, null);
    signIn('user-1');
    prefetchAssets.mockClear();
    await preloadInitialViews();
    await waitFor(() => expect(prefetchAssets).toHaveBeenCalledWith('/asset-management?page=2'));
    expect(appStore.get(currentUserAtom)).toBeNull();
  });

  it("with tokens this page's sign-in has just received, the data is asked for at once, beside the user", async () => {
    resetAll('/login');
    appStore.set(currentUserAtom, null);
    prefetchAssets.mockClear();
    storeIssuedSession({
      accessToken: fakeToken('user-1', [P.HasAccess, P.DeviceListView]),
      tokenType: 'Bearer',
      refreshToken: 'r2',
      expiresAt: Date.now() + 3_600_000,
    });
    await preloadInitialViews();
    await waitFor(() => expect(prefetchAssets).toHaveBeenCalledWith('/asset-management'));
  });

  describe('what the pages asked for is kept for the next start (early-start.ts)', () => {
    const list = { path: '/api/v1/device/get-list', method: 'POST', body: { page: 2, pageSize: 50 } };
    const types = { path: '/api/v1/device/get-types', method: 'GET' };
    beforeEach(() => {
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => new Response('{}', { headers: { 'content-type': 'application/json' } })),
      );
      prefetchAssets.mockImplementation(() => {
        void http(list.path, { method: 'POST', body: list.body });
        void http(types.path);
        // Not one a start-up can send early: a query string of its own.
        void http('/api/v1/other', { query: { a: 1 } });
      });
    });
    afterEach(() => {
      prefetchAssets.mockReset();
      vi.unstubAllGlobals();
    });
    const kept = () => JSON.parse(localStorage.getItem(START_REQUESTS_KEY) ?? 'null') as unknown;

    it('a start on a page of its own keeps them for its link', async () => {
      resetAll('/asset-management?page=2');
      signIn('user-1');
      await preloadInitialViews();
      await waitFor(() => expect(kept()).toEqual({ user: 'user-1', location: '/asset-management?page=2', requests: [list, types] }));
    });

    it('a start on the sign-in page or the root keeps them for the root', async () => {
      resetAll('/login');
      signIn('user-1');
      await preloadInitialViews();
      await waitFor(() => expect(kept()).toEqual({ user: 'user-1', location: '/', requests: [list, types] }));
    });

    it('a start that asks for nothing forgets what was kept for its own location only', async () => {
      resetAll('/persons');
      signIn('user-1');
      const other = { user: 'user-1', location: '/', requests: [list] };
      localStorage.setItem(START_REQUESTS_KEY, JSON.stringify(other));
      await preloadInitialViews();
      await new Promise((r) => setTimeout(r, 20));
      expect(kept()).toEqual(other);
      localStorage.setItem(START_REQUESTS_KEY, JSON.stringify({ ...other, location: '/persons' }));
      await preloadInitialViews();
      await waitFor(() => expect(kept()).toBeNull());
    });

    it.each([
      ['ended', () => appStore.set(sessionAtom, null)],
      ['passed to another user', () => signIn('user-2')],
    ])('nothing is asked for or kept once the session has %s', async (_, change) => {
      resetAll('/asset-management');
      signIn('user-1');
      const started = preloadInitialViews();
      change();
      await started;
      await new Promise((r) => setTimeout(r, 20));
      expect(prefetchAssets).not.toHaveBeenCalled();
      expect(kept()).toBeNull();
    });
  });
});

describe('URL and start-up', () => {
  it('a deep link opens as a tab; the page sets the tab title and document.title', async () => {
    start('/persons/edit/abc');
    expect(await screen.findByText('form for abc')).toBeInTheDocument();
    const tab = await screen.findByRole('tab', { name: /^abc/, selected: true });
    expect(tab).toHaveAttribute('aria-controls');
    expect(screen.getByRole('tabpanel')).toHaveAttribute('aria-labelledby', tab.id);
    expect(window.location.pathname).toBe('/persons/edit/abc');
    await waitFor(() => expect(document.title).toBe('Edit abc'));
  });

  it('/ opens the landing area (Asset Management)', async () => {
    start('/');
    expect(await screen.findByRole('tab', { name: /Asset Management/, selected: true })).toBeInTheDocument();
    await waitFor(() => expect(window.location.pathname).toBe('/asset-management'));
    expect(await screen.findByText('asset list page')).toBeInTheDocument();
  });

  it('an area of a later version says it is not available yet, in plain words', async () => {
    // Any signed-in route without a page yet (customers has one since #10).
    const id = (Object.keys(ROUTES) as RouteId[]).find((r) => !VIEWS[r] && ROUTES[r].permission !== 'public' && !ROUTES[r].pattern.includes(':'));
    if (!id) return; // every area is built
    const path = getHref(id);
    start(path);
    expect(await screen.findByText(NOT_AVAILABLE_TEXT)).toBeInTheDocument();
    // plain words, no route names or paths
    expect(screen.getByRole('tabpanel').textContent).not.toContain(path);
  });

  it('restores the saved layout first, then focuses (or adds) the deep-linked tab', async () => {
    let s = M.emptyWorkspace();
    s = M.openTab(s, resolveHref('/persons')!);
    s = M.openTab(s, resolveHref('/persons/edit/abc')!, { beside: true });
    resetAll('/persons');
    localStorage.setItem(storageKey('user-1'), M.serialiseWorkspace(s));
    signIn('user-1');
    renderWithApp(<Workspace commands={COMMANDS} />);
    await waitFor(() => expect(screen.getAllByRole('tablist')).toHaveLength(2));
    expect(await screen.findByRole('tab', { name: /Manage 3 Users/, selected: true })).toBeInTheDocument();
    expect(M.focusedTab(appStore.get(workspaceAtom))!.href).toBe('/persons');
    expect(tabs()).toHaveLength(2); // focused the existing tab, no duplicate
  });

  it('the URL follows the focused tab, and Back returns to the previously focused tab', async () => {
    start('/persons');
    await screen.findByRole('tab', { name: /Manage 3 Users/ });
    act(() => void openRoute('/persons/edit/abc'));
    await waitFor(() => expect(window.location.pathname).toBe('/persons/edit/abc'));
    act(() => window.history.back());
    await waitFor(() => expect(appStore.get(focusedTabAtom)!.href).toBe('/persons'));
    expect(window.location.pathname).toBe('/persons');
    expect(tabs()).toHaveLength(2);
  });

  it('the layout is saved per user', async () => {
    start('/persons');
    await screen.findByRole('tab', { name: /Manage 3 Users/ });
    const saved = JSON.parse(localStorage.getItem(storageKey('user-1'))!);
    expect(M.restoreWorkspace(saved, resolveHref)!.panes[saved.focusedPaneId]?.tabs[0]).toMatchObject({ href: '/persons', title: 'Manage 3 Users' });
    expect(localStorage.getItem(storageKey('someone-else'))).toBeNull();
  });
});

describe('permissions', () => {
  it('a route the user lacks shows the permission message instead of the page', async () => {
    start('/persons', [P.HasAccess, P.AlarmReportListView]);
    expect(await screen.findByText(MSG.forbidden)).toBeInTheDocument();
    expect(screen.queryByLabelText('List filter')).toBeNull();
  });
});

describe('tab strip', () => {
  async function threeTabs() {
    start('/persons');
    await screen.findByRole('tab', { name: /Manage 3 Users/ });
    act(() => {
      openRoute('/persons/edit/a');
      openRoute('/persons/edit/b');
    });
    await screen.findByRole('tab', { name: /^b$/, selected: true });
  }

  it('roving tabindex; arrows, Home and End move the selection', async () => {
    await threeTabs();
    const user = userEvent.setup();
    const all = tabs();
    const [first, second, third] = [at(all, 0), at(all, 1), at(all, 2)];
    expect([first, second, third].map((t) => t.getAttribute('tabindex'))).toEqual(['-1', '-1', '0']);
    third.focus();
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(first).toHaveAttribute('aria-selected', 'true'));
    await waitFor(() => expect(first).toHaveFocus());
    await user.keyboard('{End}');
    await waitFor(() => expect(third).toHaveAttribute('aria-selected', 'true'));
    await user.keyboard('{Home}');
    await waitFor(() => expect(first).toHaveAttribute('aria-selected', 'true'));
    await user.keyboard('{ArrowLeft}');
    await waitFor(() => expect(third).toHaveAttribute('aria-selected', 'true'));
    expect(window.location.pathname).toBe('/persons/edit/b');
  });

  it('Delete closes the focused tab; the close button too', async () => {
    await threeTabs();
    const user = userEvent.setup();
    at(tabs(), 2).focus();
    await user.keyboard('{Delete}');
    await waitFor(() => expect(tabs()).toHaveLength(2));
    await user.click(screen.getByLabelText('Close a') /* a mouse target, hidden from the tablist's tree */);
    await waitFor(() => expect(tabs()).toHaveLength(1));
    expect(selectedTab()[0]).toHaveAccessibleName(/Manage 3 Users/);
  });

  it('a dirty tab shows a dot and asks before closing', async () => {
    start('/persons');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Make dirty' }));
    expect(await screen.findByRole('img', { name: 'Unsaved changes' })).toBeInTheDocument();
    vi.mocked(confirm).mockResolvedValueOnce(false);
    await act(() => closeTab());
    expect(confirm).toHaveBeenCalledWith({ message: MSG.unsavedChanges, layer: expect.any(HTMLElement) });
    expect(tabs()).toHaveLength(1);
    vi.mocked(confirm).mockResolvedValueOnce(true);
    await act(() => closeTab());
    await waitFor(() => expect(screen.queryAllByRole('tab')).toHaveLength(0));
  });

  it("the question about a dirty tab opens over that tab's pane, wherever the focus is", async () => {
    start('/persons');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Make dirty' }));
    act(() => void openRoute('/persons/edit/abc', { beside: true }));
    await screen.findByText('form for abc');
    const [left, right] = screen.getAllByRole('region', { name: /^Pane \d$/ });
    // the focus is in the right pane; the dirty tab is the left pane's
    const listTab = within(left!).getByRole('tab', { name: /Manage 3 Users/ });
    within(right!).getByRole('tab').focus();
    vi.mocked(confirm).mockResolvedValueOnce(false);
    await act(() => closeTab(listTab.id.replace(/^ws-tab-/, '')));
    const { layer } = vi.mocked(confirm).mock.calls[0]![0];
    expect(layer).toHaveAttribute('data-dialog-layer');
    expect(left!.contains(layer!)).toBe(true);
    expect(right!.contains(layer!)).toBe(false);
    expect(tabs(left)).toHaveLength(1);
  });

  it('closing the tab that held the focus hands the focus to the tab shown next', async () => {
    start('/persons/edit/abc');
    await screen.findByText('form for abc');
    act(() => void openRoute('/persons'));
    const filter = await screen.findByLabelText('List filter');
    filter.focus();
    await act(() => closeTab());
    await waitFor(() => expect(screen.getByRole('tab', { name: /^abc/ })).toHaveFocus());
  });

  it('closing the last tab leaves an empty pane with a hint', async () => {
    start('/persons/edit/abc');
    await screen.findByText('form for abc');
    await act(() => closeTab());
    expect(await screen.findByText('Press Ctrl+K to open something')).toBeInTheDocument();
    expect(screen.queryByRole('tablist')).toBeNull();
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    // the empty pane stays empty: '/' does not reopen anything by itself
    expect(screen.queryAllByRole('tab')).toHaveLength(0);
  });
});

describe('tab contents', () => {
  it('inactive tabs keep their state and are mounted only once shown', async () => {
    start('/persons');
    const user = userEvent.setup();
    // let the page finish mounting (it sets its title), and let the workspace's own start-up focus
    // move (after a frame) happen, before typing into it
    await screen.findByRole('tab', { name: /Manage 3 Users/ });
    await act(() => new Promise((r) => setTimeout(r, 60)));
    await user.type(await screen.findByLabelText('List filter'), 'kept');
    act(() => void openRoute('/persons/edit/abc'));
    await screen.findByText('form for abc');
    expect(screen.getByLabelText('List filter', { selector: 'input' })).not.toBeVisible();
    act(() => void openRoute('/persons'));
    await waitFor(() => expect(screen.getByLabelText('List filter')).toBeVisible());
    expect(screen.getByLabelText('List filter')).toHaveValue('kept');
    expect((globalThis as { listMounts?: number }).listMounts).toBe(1);
  });

  it('a tab restored but never shown is not mounted', async () => {
    let s = M.emptyWorkspace();
    s = M.openTab(s, resolveHref('/persons')!);
    s = M.openTab(s, resolveHref('/persons/edit/abc')!);
    resetAll('/persons/edit/abc');
    localStorage.setItem(storageKey('user-1'), M.serialiseWorkspace(s));
    signIn('user-1');
    renderWithApp(<Workspace commands={COMMANDS} />);
    await screen.findByText('form for abc');
    expect(tabs()).toHaveLength(2);
    expect((globalThis as { listMounts?: number }).listMounts).toBe(0);
  });

  it('a tab moved to another pane, or a pane split, keeps its content mounted', async () => {
    start('/persons');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('List filter'), 'still here');
    act(() => void openRoute('/persons/edit/abc'));
    await screen.findByText('form for abc');
    act(() => splitPane('vertical'));
    await waitFor(() => expect(screen.getAllByRole('separator')).toHaveLength(1));
    act(() => void openRoute('/persons', { beside: true }));
    await waitFor(() => expect(screen.getByLabelText('List filter')).toBeVisible());
    expect(screen.getByLabelText('List filter')).toHaveValue('still here');
    expect((globalThis as { listMounts?: number }).listMounts).toBe(1);
  });
});

describe('panes', () => {
  it('separators are window splitters with values', async () => {
    start('/persons');
    await screen.findByRole('tab', { name: /Manage 3 Users/ });
    act(() => void openRoute('/persons/edit/abc', { beside: true }));
    const sep = await screen.findByRole('separator');
    expect(sep).toHaveAttribute('aria-valuenow');
    expect(sep).toHaveAccessibleName('Resize panes left and right');
    expect(screen.getAllByRole('tablist')).toHaveLength(2);
    expect(screen.getByRole('region', { name: 'Pane 2' })).toContainElement(screen.getByRole('tab', { name: /^abc/ }));
  });
});

describe('the focused pane follows the pane being used', () => {
  async function twoPanes() {
    start('/persons');
    await screen.findByRole('tab', { name: /Manage 3 Users/ });
    act(() => void openRoute('/persons/edit/abc', { beside: true }));
    await screen.findByText('form for abc');
    const left = screen.getByRole('region', { name: 'Pane 1' });
    const right = screen.getByRole('region', { name: 'Pane 2' });
    const paneOf = (el: HTMLElement) => el.dataset.paneId!;
    await waitFor(() => expect(appStore.get(workspaceAtom).focusedPaneId).toBe(paneOf(right)));
    return { left, right, paneOf };
  }

  it('focus or a click inside a page (rendered through a portal) makes its pane the focused pane', async () => {
    const { left, right, paneOf } = await twoPanes();
    const user = userEvent.setup();
    await user.click(within(left).getByLabelText('List filter'));
    await waitFor(() => expect(appStore.get(workspaceAtom).focusedPaneId).toBe(paneOf(left)));
    expect(left).toHaveAttribute('data-focused');
    await user.click(within(right).getByText('form for abc'));
    await waitFor(() => expect(appStore.get(workspaceAtom).focusedPaneId).toBe(paneOf(right)));
    act(() => within(left).getByLabelText('List filter').focus());
    await waitFor(() => expect(appStore.get(workspaceAtom).focusedPaneId).toBe(paneOf(left)));
  });

  it('a focus move still waiting for its frame gives way to a later pane command: Alt+, pressed meanwhile shrinks the pane moved to', async () => {
    const { left, right, paneOf } = await twoPanes();
    // Frames come late (a busy machine): the focus moves the commands ask for wait for them.
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    try {
      // a page opened in the right pane asks for the focus there; then Alt+` moves to the left pane
      act(() => void openRoute('/persons/edit/xyz', { focus: true }));
      await screen.findByText('form for xyz');
      act(() => focusNextPane());
      expect(appStore.get(workspaceAtom).focusedPaneId).toBe(paneOf(left));
      // the frame comes; each waiting move runs in a task of its own, and Alt+, is pressed after the first
      const user = userEvent.setup();
      const frame = async (cb: FrameRequestCallback) =>
        act(async () => {
          cb(performance.now());
          await new Promise((r) => setTimeout(r, 5));
        });
      const [first, ...rest] = frames.splice(0);
      expect(first).toBeDefined();
      await frame(first!);
      expect.soft(appStore.get(workspaceAtom).focusedPaneId, 'the focused pane after the older focus move').toBe(paneOf(left));
      await user.keyboard('{Alt>},{/Alt}');
      for (const cb of rest) await frame(cb);
      const split = appStore.get(workspaceAtom).layout as Extract<M.LayoutNode, { type: 'split' }>;
      expect(split.children.map((c) => c.id)).toEqual([paneOf(left), paneOf(right)]);
      expect(split.sizes.map(Math.round)).toEqual([45, 55]);
      expect(left).toHaveAttribute('data-focused');
      // the newest move was made: the keyboard is in the left pane
      expect(left).toContainElement(document.activeElement as HTMLElement);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("typing in the left pane, then Alt+W closes the left pane's tab, not the other one", async () => {
    const { left } = await twoPanes();
    const user = userEvent.setup();
    await user.type(within(left).getByLabelText('List filter'), 'abc');
    await user.keyboard('{Alt>}w{/Alt}');
    await waitFor(() => expect(screen.queryByRole('tab', { name: /Manage 3 Users/ })).toBeNull());
    expect(screen.getByRole('tab', { name: /^abc/ })).toBeInTheDocument();
    expect(screen.getAllByRole('tablist')).toHaveLength(1);
  });
});

describe('tab strip: titles, scrolling, more tabs', () => {
  it('titles drop the repeated "Edit " (the browser title keeps it)', async () => {
    start('/persons/edit/abc');
    const tab = await screen.findByRole('tab', { name: 'abc', selected: true });
    expect(tab).not.toHaveTextContent('Edit');
    expect(tab).toHaveAttribute('title', expect.stringContaining('Edit abc'));
    await waitFor(() => expect(document.title).toBe('Edit abc'));
  });

  it('the active tab is scrolled into view when it changes', async () => {
    const spy = vi.spyOn(Element.prototype, 'scrollIntoView');
    start('/persons');
    await screen.findByRole('tab', { name: /Manage 3 Users/ });
    spy.mockClear();
    act(() => void openRoute('/persons/edit/zz'));
    const tab = await screen.findByRole('tab', { name: 'zz', selected: true });
    await waitFor(() => expect(spy.mock.contexts).toContain(tab.parentElement));
    spy.mockRestore();
  });

  it('shows how many tabs are out of sight on each side', async () => {
    // Layout stub: every tab is 200 px wide, the strip shows 500 px.
    const proto = HTMLElement.prototype;
    const saved = ['scrollWidth', 'clientWidth', 'offsetLeft', 'offsetWidth', 'scrollLeft'].map(
      (k) => [k, Object.getOwnPropertyDescriptor(proto, k) ?? Object.getOwnPropertyDescriptor(Element.prototype, k)] as const,
    );
    let scrollLeft = 0;
    const isStrip = (el: HTMLElement) => el.classList.contains('ws-tabstrip');
    const wrapIndex = (el: HTMLElement) => [...el.parentElement!.children].indexOf(el);
    Object.defineProperty(proto, 'scrollWidth', {
      configurable: true,
      get(this: HTMLElement) {
        return isStrip(this) ? this.querySelectorAll('.ws-tab-wrap').length * 200 : 0;
      },
    });
    Object.defineProperty(proto, 'clientWidth', {
      configurable: true,
      get(this: HTMLElement) {
        return isStrip(this) ? 500 : 0;
      },
    });
    Object.defineProperty(proto, 'offsetLeft', {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains('ws-tab-wrap') ? wrapIndex(this) * 200 : 0;
      },
    });
    Object.defineProperty(proto, 'offsetWidth', {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains('ws-tab-wrap') ? 200 : 0;
      },
    });
    Object.defineProperty(proto, 'scrollLeft', {
      configurable: true,
      get() {
        return scrollLeft;
      },
      set(v: number) {
        scrollLeft = v;
      },
    });
    try {
      start('/persons');
      await screen.findByRole('tab', { name: /Manage 3 Users/ });
      act(() => {
        for (const id of ['a', 'b', 'c', 'd']) openRoute(`/persons/edit/${id}`);
      });
      act(() => void openRoute('/persons')); // the first tab active again, scrolled to the start
      const strip = screen.getByRole('tablist');
      // 5 tabs × 200 px in 500 px: tabs 4 and 5 (and the cut-off 3rd) are out of sight on the right
      act(() => void strip.dispatchEvent(new Event('scroll')));
      const bar = within(strip.parentElement!);
      expect(bar.getByRole('button', { name: '3 more tabs to the right' })).toHaveTextContent('3 ›');
      expect(bar.queryByRole('button', { name: /to the left/ })).toBeNull();
      scrollLeft = 500;
      act(() => void strip.dispatchEvent(new Event('scroll')));
      expect(bar.getByRole('button', { name: '3 more tabs to the left' })).toHaveTextContent('‹ 3');
      expect(bar.queryByRole('button', { name: /to the right/ })).toBeNull();
    } finally {
      for (const [k, d] of saved) {
        if (d) Object.defineProperty(k === 'scrollLeft' ? Element.prototype : proto, k, d);
        delete (proto as unknown as Record<string, unknown>)[k];
      }
    }
  });
});

describe('leaving the page', () => {
  it('asks before a reload or closing the browser while a tab has unsaved changes, and only then', async () => {
    start('/persons');
    const user = userEvent.setup();
    const fire = () => {
      const e = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(e);
      return e.defaultPrevented;
    };
    await screen.findByRole('tab', { name: /Manage 3 Users/ });
    expect(fire()).toBe(false);
    await user.click(await screen.findByRole('button', { name: 'Make dirty' }));
    await screen.findByRole('img', { name: 'Unsaved changes' });
    expect(fire()).toBe(true);
    await act(() => closeTab());
    await waitFor(() => expect(screen.queryAllByRole('tab')).toHaveLength(0));
    expect(fire()).toBe(false);
  });
});
