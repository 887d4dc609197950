// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../../src/app/state/store';
import { can, currentUserAtom, landingHref, logout, onLogout, permissionsAtom, sessionAtom, userIdAtom, SESSION_KEY } from '../../../src/app/state/session';
import { queryClient } from '../../../src/app/api/query-client';
import { getToasts } from '../../../src/app/ui/toast';
import { MSG } from '../../../src/shared/messages';
import { P } from '../../../src/shared/permissions';
import { ARC_CONTROLLER_PERMISSIONS, resetApp, session, stubFetch } from './helpers';
import { makeUserInfo } from '../../helpers/fixtures';

beforeEach(resetApp);
afterEach(() => vi.unstubAllGlobals());

describe('session atoms', () => {
  it('persist the tokens in localStorage and read the claims from the access token', () => {
    const s = session('alice', [P.HasAccess, P.PersonListView], 'person-42');
    appStore.set(sessionAtom, s);
    expect(JSON.parse(localStorage.getItem(SESSION_KEY)!)).toEqual(s);
    expect(appStore.get(permissionsAtom)).toEqual([P.HasAccess, P.PersonListView]);
    expect(appStore.get(userIdAtom)).toBe('person-42');
  });

  it('can() knows public, signed-in and named permissions', () => {
    expect(can('public')).toBe(true);
    expect(can('signed-in')).toBe(false);
    expect(can(P.PersonListView)).toBe(false);
    appStore.set(sessionAtom, session('bob', [P.HasAccess, P.PersonListView]));
    expect(can('signed-in')).toBe(true);
    expect(can(P.PersonListView)).toBe(true);
    expect(can(P.DeviceListView)).toBe(false);
  });

  it('lands admins on Asset Management, ARC controllers on Alarm Reports, persons-only staff on /persons', () => {
    appStore.set(sessionAtom, session('admin'));
    expect(landingHref()).toBe('/asset-management');
    appStore.set(sessionAtom, session('arc', ARC_CONTROLLER_PERMISSIONS));
    expect(landingHref()).toBe('/alarm-reports');
    appStore.set(sessionAtom, session('hr', [P.HasAccess, P.PersonListView]));
    expect(landingHref()).toBe('/persons');
  });
});

describe('logout', () => {
  it('keeps only the single-sign-on-enabled flag, clears the query cache and the user, and goes to /login', () => {
    appStore.set(sessionAtom, session('carol'));
    appStore.set(currentUserAtom, makeUserInfo({ email: 'carol@example.test', firstName: 'Carol', lastName: 'C' }));
    localStorage.setItem('IsSSOEnabled', 'false');
    localStorage.setItem('IsSSOLoading', 'false');
    localStorage.setItem('bulkUpdateDevices', '["d1","d2"]');
    localStorage.setItem('workspace:user-1', '{}');
    queryClient.setQueryData(['persons', 'list', {}], { Items: [], TotalCount: 0 });
    const seen: string[] = [];
    const off = onLogout((r) => seen.push(r));
    window.history.replaceState(null, '', '/persons');

    logout('user');
    off();

    expect(Object.keys(localStorage).sort()).toEqual(['IsSSOEnabled']);
    expect(appStore.get(sessionAtom)).toBeNull();
    expect(appStore.get(currentUserAtom)).toBeNull();
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
    expect(window.location.pathname).toBe('/login');
    expect(seen).toEqual(['user']);
    expect(getToasts()).toHaveLength(0);
  });

  it("'expired' also shows the session-expired toast", () => {
    appStore.set(sessionAtom, session('dan'));
    logout('expired');
    expect(getToasts().map((t) => t.message)).toEqual([MSG.sessionExpired]);
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
  });

  it('asks the server to revoke the refresh token (POST /connect/revocation) before clearing; not when the session expired', () => {
    const { calls } = stubFetch(() => new Response(null, { status: 200 }));
    const s = session('erin');
    appStore.set(sessionAtom, s);
    logout('user');
    expect(calls.map((c) => ({ url: c.url, method: c.method, body: Object.fromEntries(new URLSearchParams(c.body ?? '')) }))).toEqual([
      { url: '/connect/revocation', method: 'POST', body: { token: s.refreshToken, token_type_hint: 'refresh_token', client_id: 'portal' } },
    ]);
    appStore.set(sessionAtom, session('erin'));
    logout('expired');
    expect(calls).toHaveLength(1);
  });
});
