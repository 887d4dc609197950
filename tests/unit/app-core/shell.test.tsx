import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { first } from '../../helpers/lists';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appStore } from '../../../src/app/state/store';
import { currentUserAtom, sessionAtom } from '../../../src/app/state/session';
import { SideNav } from '../../../src/app/shell/side-nav';
import { TopBar } from '../../../src/app/shell/top-bar';
import { ErrorBoundary } from '../../../src/app/shell/error-screen';
import { MSG } from '../../../src/shared/messages';
import { P } from '../../../src/shared/permissions';
import { ADMIN_PERMISSIONS, ARC_CONTROLLER_PERMISSIONS, Providers, polyfillDom, resetApp, session } from './helpers';
import { makeUserInfo } from '../../helpers/fixtures';

const openRoute = vi.hoisted(() => vi.fn(() => true));
vi.mock('../../../src/app/workspace/actions', () => ({ openRoute }));

beforeEach(() => {
  resetApp();
  polyfillDom();
  openRoute.mockClear();
  window.history.replaceState(null, '', '/persons');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function signIn(permissions: string[]) {
  appStore.set(sessionAtom, session('u', permissions));
  appStore.set(currentUserAtom, makeUserInfo());
}

describe('side navigation', () => {
  it('shows every area to an admin, marks the current one and opens entries in the focused tab', async () => {
    signIn(ADMIN_PERMISSIONS);
    render(
      <Providers>
        <SideNav />
      </Providers>,
    );
    const nav = screen.getByRole('navigation');
    const names = within(nav)
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(names).toEqual([MSG.navAssetManagement, MSG.navCustomers, MSG.navUserManagement, MSG.navAlarmReports]);
    expect(within(nav).getByRole('link', { name: MSG.navUserManagement })).toHaveAttribute('aria-current', 'page');
    await userEvent.click(within(nav).getByRole('link', { name: MSG.navCustomers }));
    expect(openRoute).toHaveBeenCalledWith('/customers');
  });

  it('shows an ARC controller only Alarm Reports; Enter on it opens the route', async () => {
    signIn(ARC_CONTROLLER_PERMISSIONS);
    render(
      <Providers>
        <SideNav />
      </Providers>,
    );
    const links = within(screen.getByRole('navigation')).getAllByRole('link');
    expect(links.map((a) => a.textContent)).toEqual([MSG.navAlarmReports]);
    first(links).focus();
    await userEvent.keyboard('{Enter}');
    expect(openRoute).toHaveBeenCalledWith('/alarm-reports');
  });
});

describe('top bar', () => {
  it('profile menu: Profile, Settings, Log out; Log out ends the session', async () => {
    signIn(ADMIN_PERMISSIONS);
    localStorage.setItem('IsSSOEnabled', 'false');
    localStorage.setItem('workspace:user-1', '{}');
    render(
      <Providers>
        <TopBar />
      </Providers>,
    );
    expect(within(screen.getByRole('banner')).getByText('Manage Users')).toBeInTheDocument(); // title of the route in the URL (not a second h1)
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /profile menu/i }));
    const items = (await screen.findAllByRole('menuitem')).map((i) => i.textContent);
    expect(items).toEqual([MSG.menuProfile, MSG.menuSettings, MSG.menuLogOut]);
    await user.click(screen.getByRole('menuitem', { name: MSG.menuProfile }));
    expect(openRoute).toHaveBeenCalledWith('/edit-own-profile');

    await user.click(screen.getByRole('button', { name: /profile menu/i }));
    await user.click(await screen.findByRole('menuitem', { name: MSG.menuLogOut }));
    expect(appStore.get(sessionAtom)).toBeNull();
    expect(Object.keys(localStorage)).toEqual(['IsSSOEnabled']);
    expect(window.location.pathname).toBe('/login');
  });

  it('hides Profile without the own-profile permission and Settings for single-sign-on users', async () => {
    appStore.set(sessionAtom, session('u', [P.HasAccess, P.AlarmReportListView]));
    appStore.set(currentUserAtom, makeUserInfo({ email: 's@example.test', firstName: 'S', lastName: 'S', loginMethod: { value: 2, name: 'SingleSignOn' } }));
    render(
      <Providers>
        <TopBar />
      </Providers>,
    );
    await userEvent.click(screen.getByRole('button', { name: /profile menu/i }));
    const items = (await screen.findAllByRole('menuitem')).map((i) => i.textContent);
    expect(items).toEqual([MSG.menuLogOut]);
  });

  it('Back goes one step back in history', async () => {
    signIn(ADMIN_PERMISSIONS);
    const back = vi.spyOn(window.history, 'back').mockImplementation(() => {});
    render(
      <Providers>
        <TopBar />
      </Providers>,
    );
    await userEvent.click(screen.getByRole('button', { name: MSG.back }));
    expect(back).toHaveBeenCalledTimes(1);
  });
});

describe('global error screen', () => {
  it('replaces a crashed render with the spec screen and reports the error with severity Error', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const Boom = () => {
      throw new Error('kaput');
    };
    render(
      <Providers>
        <ErrorBoundary>
          <Boom />
        </ErrorBoundary>
      </Providers>,
    );
    expect(screen.getByRole('heading', { name: MSG.default })).toBeInTheDocument();
    expect(screen.getByText(MSG.errorScreenText)).toBeInTheDocument();
    const today = new Date().toLocaleDateString('en-GB');
    expect(await screen.findByText(new RegExp(today.replace(/\//g, '\\/')))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: MSG.backToMainPage })).toBeInTheDocument();
    const reports = logged.mock.calls.map((c) => c[0]).filter((x) => (x as { severity?: string })?.severity === 'Error');
    expect(reports).toHaveLength(1);
    expect((reports[0] as { error: Error }).error.message).toBe('kaput');
  });
});
