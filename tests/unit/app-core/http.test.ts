// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { first } from '../../helpers/lists';
import { appStore } from '../../../src/app/state/store';
import { sessionAtom } from '../../../src/app/state/session';
import { http } from '../../../src/app/api/http';
import { getToasts } from '../../../src/app/ui/toast';
import { MSG } from '../../../src/shared/messages';
import { errorResponse, json, resetApp, session, stubFetch, tokens } from './helpers';
import { WAIT } from '../../helpers/wait';

beforeEach(resetApp);
afterEach(() => vi.unstubAllGlobals());

const old = () => session('old');
const fresh = tokens('fresh');
const deferred = <T>() => {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

describe('http', () => {
  it('sends the Authorization header built from the token type and token', async () => {
    const s = old();
    appStore.set(sessionAtom, s);
    const { calls } = stubFetch(() => json({ ok: true }));
    await expect(http('/ps-admin/persons/get-list', { query: { page: 1 } })).resolves.toEqual({ ok: true });
    expect(first(calls).auth).toBe(`Bearer ${s.accessToken}`);
    expect(first(calls).url).toBe('/ps-admin/persons/get-list?page=1');
  });

  it('on 401 refreshes once with the refresh token and retries the request', async () => {
    const s = old();
    appStore.set(sessionAtom, s);
    const { calls } = stubFetch((c) => {
      if (c.url === '/connect/token') return json(fresh);
      return c.auth === `Bearer ${fresh.access_token}` ? json({ Items: [1] }) : errorResponse(401, 'unauthorized');
    });

    await expect(http('/api/thing')).resolves.toEqual({ Items: [1] });

    const refresh = calls.filter((c) => c.url === '/connect/token');
    expect(refresh).toHaveLength(1);
    const form = new URLSearchParams(first(refresh).body!);
    expect(form.get('grant_type')).toBe('refresh_token');
    expect(form.get('client_id')).toBe('portal');
    expect(form.get('refresh_token')).toBe(s.refreshToken);
    expect(calls.map((c) => c.url)).toEqual(['/api/thing', '/connect/token', '/api/thing']);
    expect(appStore.get(sessionAtom)?.accessToken).toBe(fresh.access_token);
    expect(JSON.parse(localStorage.getItem('session')!).refreshToken).toBe(fresh.refresh_token);
  });

  it('two concurrent 401s share exactly one refresh', async () => {
    appStore.set(sessionAtom, old());
    const gate = deferred<void>();
    let unauthorised = 0;
    const { calls } = stubFetch(async (c) => {
      if (c.url === '/connect/token') {
        await gate.promise; // hold the refresh until both requests have failed
        return json(fresh);
      }
      if (c.auth === `Bearer ${fresh.access_token}`) return json({ url: c.url });
      unauthorised++;
      return errorResponse(401, 'unauthorized');
    });

    const a = http('/api/a');
    const b = http('/api/b');
    await vi.waitFor(() => expect(unauthorised).toBe(2), WAIT);
    gate.resolve();

    await expect(Promise.all([a, b])).resolves.toEqual([{ url: '/api/a' }, { url: '/api/b' }]);
    expect(calls.filter((c) => c.url === '/connect/token')).toHaveLength(1);
  });

  it('a failed refresh logs out with the session-expired toast', async () => {
    appStore.set(sessionAtom, old());
    localStorage.setItem('IsSSOEnabled', 'false');
    localStorage.setItem('bulkUpdateDevices', '["x"]');
    window.history.replaceState(null, '', '/persons');
    const { calls } = stubFetch((c) =>
      c.url === '/connect/token' ? errorResponse(400, 'invalid_grant', MSG.sessionExpired) : errorResponse(401, 'unauthorized'),
    );

    await expect(http('/api/thing')).rejects.toMatchObject({ status: 401 });

    expect(calls.filter((c) => c.url === '/connect/token')).toHaveLength(1);
    expect(calls.filter((c) => c.url === '/api/thing')).toHaveLength(1); // no retry without new tokens
    expect(appStore.get(sessionAtom)).toBeNull();
    expect(Object.keys(localStorage)).toEqual(['IsSSOEnabled']);
    expect(window.location.pathname).toBe('/login');
    expect(getToasts().map((t) => t.message)).toEqual([MSG.sessionExpired]);
  });

  it('does not refresh for other errors and passes the server body on', async () => {
    appStore.set(sessionAtom, old());
    const { calls } = stubFetch(() => errorResponse(403, 'forbidden', MSG.forbidden));
    await expect(http('/api/thing')).rejects.toMatchObject({ status: 403, data: { Content: { Message: MSG.forbidden } } });
    expect(calls).toHaveLength(1);
  });

  it('a 401 that arrives after another request already refreshed just retries with the new token', async () => {
    const s = old();
    appStore.set(sessionAtom, s);
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const { calls } = stubFetch(async (c) => {
      if (c.url === '/connect/token') return json(fresh);
      if (c.auth === `Bearer ${fresh.access_token}`) return json({ ok: c.url });
      if (c.url === '/api/slow') await slow; // still on its way while /api/fast refreshes
      return errorResponse(401, 'unauthorized');
    });
    const slowCall = http('/api/slow');
    await expect(http('/api/fast')).resolves.toEqual({ ok: '/api/fast' });
    release();
    await expect(slowCall).resolves.toEqual({ ok: '/api/slow' });
    expect(calls.filter((c) => c.url === '/connect/token')).toHaveLength(1);
  });

  it('across tabs: inside the refresh lock, tokens another tab already stored are adopted, not refreshed again', async () => {
    const s = old();
    appStore.set(sessionAtom, s);
    const otherTab = session('other-tab');
    // Web Locks stub: while this tab waited for the lock, the other tab refreshed and stored its tokens.
    vi.stubGlobal('navigator', {
      ...navigator,
      locks: {
        request: async (_name: string, fn: () => Promise<unknown>) => {
          localStorage.setItem('session', JSON.stringify(otherTab));
          return fn();
        },
      },
    });
    const { calls } = stubFetch((c) => (c.auth === `Bearer ${otherTab.accessToken}` ? json({ ok: 1 }) : errorResponse(401, 'unauthorized')));
    await expect(http('/api/thing')).resolves.toEqual({ ok: 1 });
    expect(calls.filter((c) => c.url === '/connect/token')).toHaveLength(0);
    expect(appStore.get(sessionAtom)?.refreshToken).toBe(otherTab.refreshToken);
  });
});
