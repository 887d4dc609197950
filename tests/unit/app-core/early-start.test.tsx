// A start with a stored session sends the user's request and the last start-up's data requests
// before the app's modules have loaded (src/app/early-start.ts → api/early-requests.ts); the app
// takes their answers, and shows nothing until the user's answer says the session is valid.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { appStore } from '../../../src/app/state/store';
import { currentUserAtom, sessionAtom } from '../../../src/app/state/session';
import { Root } from '../../../src/app/app';
import { http } from '../../../src/app/api/http';
import { loadCurrentUser } from '../../../src/app/api/auth';
import { queryClient } from '../../../src/app/api/query-client';
import { dropEarlyAnswers, sendEarlyRequests, START_REQUESTS_KEY, USER_INFO_PATH, type StartRequests } from '../../../src/app/api/early-requests';
import { MSG } from '../../../src/shared/messages';
import { Providers, errorResponse, json, polyfillDom, resetApp, session, stubFetch, type Call } from './helpers';
import { makeFeatures, makeUserInfo } from '../../helpers/fixtures';

vi.mock('../../../src/app/workspace/workspace', () => ({
  Workspace: () => <p>workspace here</p>,
  preloadInitialViews: () => Promise.resolve(),
  prefetchLikelyViews: () => Promise.resolve(),
}));
vi.mock('../../../src/app/workspace/actions', () => ({ openRoute: vi.fn(() => true) }));

const LIST = { path: '/api/v1/device/get-list', method: 'POST' as const, body: { page: 1, pageSize: 50, sort: { by: 'serial' } } };
const TYPES = { path: '/api/v1/device/get-types', method: 'GET' as const };
const DEVICES = { devices: [{ serialNumber: 'SN-EARLY-1' }], totalCount: 1 };

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Signed in as user-1 ('ann'), with the last start-up's requests kept for `location`. */
function storedSession(kept: Partial<StartRequests> = {}) {
  appStore.set(sessionAtom, session('ann'));
  localStorage.setItem(START_REQUESTS_KEY, JSON.stringify({ user: 'user-1', location: '/', requests: [LIST, TYPES], ...kept }));
}
const start = (location = '/') => sendEarlyRequests(localStorage.getItem('session')!, location);
const urls = (calls: Call[]) => calls.map((c) => `${c.method} ${c.url}`);

beforeEach(() => {
  resetApp();
  polyfillDom();
  dropEarlyAnswers();
});
afterEach(() => {
  cleanup();
  dropEarlyAnswers();
  vi.unstubAllGlobals();
});

describe('early requests', () => {
  it("the first page's data leaves with the user's request, before the user has answered; the app takes both answers", async () => {
    storedSession();
    const user = deferred<Response>();
    const { calls } = stubFetch((c) => (c.url === USER_INFO_PATH ? user.promise : c.url === LIST.path ? json(DEVICES) : json([{ Value: 1 }])));
    start();
    expect(urls(calls)).toEqual([`GET ${USER_INFO_PATH}`, `POST ${LIST.path}`, `GET ${TYPES.path}`]);
    expect(calls[1]!.body).toBe(JSON.stringify(LIST.body));
    expect(calls.every((c) => c.auth === `Bearer ${session('ann').accessToken}`)).toBe(true);

    // The page's own requests, made as the workspace loads: the answers already under way.
    await expect(http(LIST.path, { method: 'POST', body: { ...LIST.body } })).resolves.toEqual(DEVICES);
    await expect(http(TYPES.path)).resolves.toEqual([{ Value: 1 }]);
    const loading = loadCurrentUser();
    user.resolve(json(makeUserInfo({ roles: [] })));
    await expect(loading).resolves.toMatchObject({ firstName: 'Ann' });
    expect(calls).toHaveLength(3);

    // Taken once: the same request later goes itself.
    await http(TYPES.path);
    expect(calls).toHaveLength(4);
  });

  it('a request the start-up did not send, or another body, goes itself', async () => {
    storedSession();
    const { calls } = stubFetch(() => json({}));
    start();
    await http(LIST.path, { method: 'POST', body: { ...LIST.body, page: 2 } });
    await http('/api/v1/device/get-asset-statuses');
    expect(urls(calls).slice(3)).toEqual([`POST ${LIST.path}`, 'GET /api/v1/device/get-asset-statuses']);
  });

  it("another user's kept requests, or another link's: the user's request alone", () => {
    for (const [kept, location] of [
      [{ user: 'user-2' }, '/'],
      [{}, '/asset-management?page=3'],
    ] as const) {
      storedSession(kept);
      const { calls } = stubFetch(() => json({}));
      start(location);
      expect(urls(calls)).toEqual([`GET ${USER_INFO_PATH}`]);
      dropEarlyAnswers();
      vi.unstubAllGlobals();
    }
  });

  it('an expired access token sends nothing (the app refreshes it first)', () => {
    appStore.set(sessionAtom, { ...session('ann'), expiresAt: Date.now() - 1000 });
    localStorage.setItem(START_REQUESTS_KEY, JSON.stringify({ user: 'user-1', location: '/', requests: [LIST] }));
    const { calls } = stubFetch(() => json({}));
    start();
    expect(calls).toHaveLength(0);
  });

  it('an answer for other tokens is not taken', async () => {
    storedSession();
    const { calls } = stubFetch(() => json(DEVICES));
    start();
    appStore.set(sessionAtom, session('bob', undefined, 'user-1'));
    await http(LIST.path, { method: 'POST', body: LIST.body });
    expect(urls(calls).slice(3)).toEqual([`POST ${LIST.path}`]);
    expect(calls[3]!.auth).toBe(`Bearer ${session('bob', undefined, 'user-1').accessToken}`);
  });

  it('an early answer refused with 401 is not taken: the request goes again, through the refresh', async () => {
    storedSession();
    const { calls } = stubFetch((c) => (c.url === '/connect/token' ? errorResponse(400, 'invalid_grant') : errorResponse(401, 'unauthorized')));
    start();
    await expect(http(LIST.path, { method: 'POST', body: LIST.body })).rejects.toMatchObject({ status: 401 });
    expect(urls(calls).slice(3)).toEqual([`POST ${LIST.path}`, 'POST /connect/token']);
    expect(appStore.get(sessionAtom)).toBeNull();
  });
});

describe('a revoked stored session', () => {
  it('the data went early, yet nothing is shown: the user lands on sign-in and nothing of the session is kept', async () => {
    storedSession();
    window.history.replaceState(null, '', '/');
    // The server refuses every request of the session, and its refresh.
    const { calls } = stubFetch((c) =>
      c.url === '/connect/token' ? errorResponse(400, 'invalid_grant') : c.auth ? errorResponse(401, 'unauthorized') : json(makeFeatures()),
    );
    start();
    expect(urls(calls).slice(0, 3)).toEqual([`GET ${USER_INFO_PATH}`, `POST ${LIST.path}`, `GET ${TYPES.path}`]);
    // The app's own prefetch of the page, as the workspace's start-up makes it.
    void queryClient.prefetchQuery({ queryKey: ['devices', 'list'], queryFn: () => http(LIST.path, { method: 'POST', body: LIST.body }), retry: false });
    render(
      <Providers>
        <Root />
      </Providers>,
    );
    expect(await screen.findByRole('heading', { name: MSG.signInHeading })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/login');
    expect(screen.queryByText('workspace here')).toBeNull();
    expect(screen.queryByText('SN-EARLY-1')).toBeNull();
    expect(appStore.get(sessionAtom)).toBeNull();
    expect(appStore.get(currentUserAtom)).toBeNull();
    expect(queryClient.getQueryData(['devices', 'list'])).toBeUndefined();
    expect(localStorage.getItem(START_REQUESTS_KEY)).toBeNull();
  });
});
