// Shared set-up for the workspace and palette tests: a signed-in session with chosen
// permissions, a clean store and storage, jsdom gaps filled.
import type { ReactNode } from 'react';
import { configure, render } from '@testing-library/react';
import { Provider } from 'jotai';
import { Theme } from '@radix-ui/themes';
import { appStore } from '../../../src/app/state/store';
import { sessionAtom } from '../../../src/app/state/session';
import { resetWorkspace } from '../../../src/app/workspace/state';
import { paletteOpenAtom } from '../../../src/app/palette/state';
import { ALL_PERMISSIONS } from '../../../src/shared/permissions';
import { workspaceAtom } from '../../../src/app/workspace/state';
import { findTab } from '../../../src/app/workspace/model';
import type { TabApi } from '../../../src/app/workspace/tab-context';
import { renderInTab, testQueryClient } from '../../helpers/tab-render';
import type { RouteId } from '../../../src/app/paths';

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

/** An unsigned token is enough: the client only decodes claims. */
export function fakeToken(sub: string, permissions: readonly string[]) {
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub, permissions, role: [] })}.x`;
}

export function signIn(userId = 'user-1', permissions: readonly string[] = ALL_PERMISSIONS) {
  appStore.set(sessionAtom, { accessToken: fakeToken(userId, permissions), tokenType: 'Bearer', refreshToken: 'r', expiresAt: Date.now() + 3_600_000 });
}

export function resetAll(path = '/') {
  localStorage.clear();
  resetWorkspace();
  appStore.set(paletteOpenAtom, false);
  window.history.replaceState(null, '', path);
}

export function installDomGaps() {
  // The machine running the suite can be busy: give async queries time before failing.
  configure({ asyncUtilTimeout: 5000 });
  if (!('ResizeObserver' in window)) {
    class RO {
      observe() {}
      unobserve() {}
      disconnect() {}
    }
    (window as unknown as { ResizeObserver: unknown }).ResizeObserver = RO;
    (globalThis as unknown as { ResizeObserver: unknown }).ResizeObserver = RO;
  }
  if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};
  if (!Element.prototype.hasPointerCapture) Element.prototype.hasPointerCapture = () => false;
}

export function renderWithApp(ui: ReactNode) {
  return render(
    <Provider store={appStore}>
      <Theme>{ui}</Theme>
    </Provider>,
  );
}

/**
 * `ui` as the page of the workspace tab `tabId` (in the app's store, which holds the workspace), as
 * the app renders a tab: the tab's context (its title and navigation ignored) and a query client of
 * its own that does not retry.
 */
export function renderInWorkspaceTab(ui: ReactNode, tabId: string, route: RouteId) {
  const tab: TabApi = {
    tabId,
    paneId: findTab(appStore.get(workspaceAtom), tabId)!.pane.id,
    route,
    params: {},
    active: true,
    setTitle: () => {},
    setDirty: () => {},
    navigate: () => {},
    back: () => {},
    close: () => {},
  };
  return renderInTab(ui, { store: appStore, tab, queryClient: testQueryClient() });
}
