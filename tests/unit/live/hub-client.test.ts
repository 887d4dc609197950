// The tab's hub client (src/app/api/live.ts) over a stand-in @microsoft/signalr: negotiate with the
// signed-in user's id, connect, join the watched identities; events go only to the subscribers of
// that device; a drop reconnects with backoff, joins everything again, refetches the ['live']
// queries and tells the subscribers; a failed connect shows 'failed' and keeps retrying; the
// subscription is re-sent every 10 minutes; logout ends the connection; a provider setting
// changed (SettingsChanged, sent to every connection) refetches the features and settings; a
// record open in a tab is opened on the hub (again after a reconnect, with the hub's time its
// watchers were last current, so a change missed meanwhile reaches them) and closed when the tab goes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { atom } from 'jotai';

const fake = vi.hoisted(() => {
  class FakeConnection {
    state = 'Disconnected';
    connectionId: string | null = null;
    handlers = new Map<string, (p: unknown) => void>();
    closeHandlers: ((e?: Error) => void)[] = [];
    invoked: [string, unknown][] = [];
    constructor(
      readonly url: string,
      readonly opts: { accessTokenFactory: () => string },
    ) {}
    on(event: string, h: (p: unknown) => void) {
      this.handlers.set(event, h);
    }
    onclose(h: (e?: Error) => void) {
      this.closeHandlers.push(h);
    }
    async start() {
      if (state.failStarts > 0) {
        state.failStarts--;
        throw new Error('connection refused');
      }
      this.state = 'Connected';
      this.connectionId = `conn-${state.connections.length}`;
    }
    async stop() {
      this.state = 'Disconnected';
    }
    async invoke(method: string, ...args: unknown[]) {
      const arg = args[0];
      this.invoked.push([method, args.length > 1 ? args : arg]);
      // with a `since` (a reopen after a drop), the hub answers the change the tab missed
      if (method === 'openRecord') return { Open: true, Present: ['Alice Smith'], At: '2026-11-29T09:00:00.000Z', Changed: args[2] ? state.missed : null };
      if (method === 'closeRecord') return null;
      const ids = (Array.isArray(arg) ? arg : []) as string[];
      return { Subscribed: ids.filter((i) => !state.refuse.includes(i)), Refused: ids.filter((i) => state.refuse.includes(i)) };
    }
    emit(event: string, payload: unknown) {
      this.handlers.get(event)?.(payload);
    }
    drop() {
      this.state = 'Disconnected';
      for (const h of this.closeHandlers) h(new Error('server went away'));
    }
  }
  const state = { failStarts: 0, connections: [] as FakeConnection[], refuse: [] as string[], missed: null as unknown };
  return { state, FakeConnection };
});

vi.mock('@microsoft/signalr', () => ({
  HttpTransportType: { WebSockets: 1 },
  LogLevel: { None: 6 },
  HubConnectionState: { Connected: 'Connected', Disconnected: 'Disconnected' },
  HubConnectionBuilder: class {
    url = '';
    opts = { accessTokenFactory: () => '' };
    withUrl(url: string, opts: { accessTokenFactory: () => string }) {
      this.url = url;
      this.opts = opts;
      return this;
    }
    configureLogging() {
      return this;
    }
    build() {
      const c = new fake.FakeConnection(this.url, this.opts);
      fake.state.connections.push(c);
      return c;
    }
  },
}));
const logoutListeners = vi.hoisted(() => [] as (() => void)[]);
vi.mock('../../../src/app/state/session', () => ({
  userIdAtom: atom('user-1'),
  onLogout: (fn: () => void) => {
    logoutListeners.push(fn);
    return () => {};
  },
}));
vi.mock('../../../src/app/api/query-client', () => ({ queryClient: { invalidateQueries: vi.fn(async () => {}) } }));
vi.mock('../../../src/app/api/http', () => ({ http: vi.fn(async () => ({ Url: 'http://localhost/hub/devices', AccessToken: 'hub-token' })) }));

import { http } from '../../../src/app/api/http';
import { queryClient } from '../../../src/app/api/query-client';
import { liveHub } from '../../../src/app/api/live';

const last = () => fake.state.connections[fake.state.connections.length - 1]!;
const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  fake.state.connections = [];
  fake.state.failStarts = 0;
  fake.state.refuse = [];
  fake.state.missed = null;
  vi.mocked(http).mockClear();
  vi.mocked(queryClient.invalidateQueries).mockClear();
});
afterEach(() => {
  liveHub.stop(true);
  vi.useRealTimers();
});

describe('hub client', () => {
  it('negotiates for the signed-in user, connects and joins the watched identities', async () => {
    const off = liveHub.subscribe(['IMEI-1', 'IMEI-2'], {});
    expect(liveHub.getStatus()).toBe('connecting');
    await flush();
    expect(vi.mocked(http)).toHaveBeenCalledWith('/api/admin/negotiate', { method: 'POST', query: { userid: 'user-1' } });
    expect(last().url).toBe('http://localhost/hub/devices');
    expect(last().opts.accessTokenFactory()).toBe('hub-token');
    expect(last().invoked).toEqual([['joinGroup', ['IMEI-1', 'IMEI-2']]]);
    expect(liveHub.getStatus()).toBe('connected');
    expect(liveHub.connectionId()).toBe('conn-1');
    off();
  });

  it('events reach only the subscribers of that device', async () => {
    const a: unknown[] = [];
    const b: unknown[] = [];
    liveHub.subscribe(['IMEI-A'], { MessageStream: (p) => a.push(p) });
    liveHub.subscribe(['IMEI-B'], { MessageStream: (p) => b.push(p), DeviceConnected: (p) => b.push(p) });
    await flush();
    last().emit('MessageStream', { DeviceIdentity: 'IMEI-A', Message: 'SOS alarm' });
    last().emit('DeviceConnected', { DeviceIdentity: 'IMEI-B', IsConnected: true });
    expect(a).toEqual([{ DeviceIdentity: 'IMEI-A', Message: 'SOS alarm' }]);
    expect(b).toEqual([{ DeviceIdentity: 'IMEI-B', IsConnected: true }]);
  });

  it('joins new identities while connected and leaves the ones nobody watches any more', async () => {
    const off1 = liveHub.subscribe(['X'], {});
    await flush();
    const off2 = liveHub.subscribe(['X', 'Y'], {});
    await flush();
    expect(last().invoked).toEqual([
      ['joinGroup', ['X']],
      ['joinGroup', ['Y']],
    ]);
    off2();
    expect(last().invoked.at(-1)).toEqual(['leaveGroup', ['Y']]);
    off1();
    await vi.advanceTimersByTimeAsync(6_000); // no subscriber left: the connection stops
    expect(liveHub.getStatus()).toBe('idle');
  });

  it('after a drop: reconnects, joins everything again, refetches live queries and tells the subscribers', async () => {
    const reconnected = vi.fn();
    liveHub.subscribe(['IMEI-1'], { onReconnected: reconnected });
    await flush();
    const first = last();
    first.drop();
    expect(liveHub.getStatus()).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fake.state.connections).toHaveLength(2);
    expect(vi.mocked(http)).toHaveBeenCalledTimes(2); // a fresh negotiate (a fresh hub token)
    expect(last().invoked).toEqual([['joinGroup', ['IMEI-1']]]);
    expect(liveHub.getStatus()).toBe('connected');
    expect(vi.mocked(queryClient.invalidateQueries)).toHaveBeenCalledWith({ queryKey: ['live'] });
    expect(reconnected).toHaveBeenCalledTimes(1);
  });

  it("a failed connect shows 'failed' and keeps retrying with backoff", async () => {
    fake.state.failStarts = 2;
    liveHub.subscribe(['IMEI-1'], {});
    await flush();
    expect(liveHub.getStatus()).toBe('failed');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(liveHub.getStatus()).toBe('failed');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(liveHub.getStatus()).toBe('connected');
    expect(fake.state.connections).toHaveLength(3);
  });

  it('re-sends the subscription every 10 minutes', async () => {
    liveHub.subscribe(['IMEI-1'], {});
    await flush();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(last().invoked).toEqual([
      ['joinGroup', ['IMEI-1']],
      ['joinGroup', ['IMEI-1']],
    ]);
  });

  it('logout ends the connection', async () => {
    liveHub.subscribe(['IMEI-1'], {});
    await flush();
    const c = last();
    for (const fn of logoutListeners) fn();
    expect(liveHub.getStatus()).toBe('idle');
    expect(c.state).toBe('Disconnected');
  });

  it('identities the hub refuses (unknown, another tenant) are reported to the subscribers that watch them', async () => {
    fake.state.refuse = ['OTHER-TENANT'];
    const a: string[][] = [];
    const b: string[][] = [];
    liveHub.subscribe(['MINE', 'OTHER-TENANT'], { onSubscribeFailed: (ids) => a.push(ids) });
    liveHub.subscribe(['MINE-2'], { onSubscribeFailed: (ids) => b.push(ids) });
    await flush();
    expect(a).toEqual([['OTHER-TENANT']]);
    expect(b).toEqual([]);
  });

  it('a provider setting changed: the features, global settings and Provider Settings are refetched, also with no device watched', async () => {
    liveHub.subscribe([], {});
    await flush();
    expect(liveHub.getStatus()).toBe('connected');
    expect(last().invoked).toEqual([]);
    vi.mocked(queryClient.invalidateQueries).mockClear();
    last().emit('SettingsChanged', { Kind: 'feature', Name: 'CustomCheckInTime', At: '2026-11-26T10:00:00.000Z' });
    const keys = vi.mocked(queryClient.invalidateQueries).mock.calls.map(([f]) => (f as { queryKey: unknown }).queryKey);
    expect(keys).toEqual([
      ['reference', 'features'],
      ['reference', 'global-settings'],
      ['admin', 'settings'],
    ]);
  });

  it('follows a record open in a tab: opens it on the hub, hands its changes and presence to its watchers, opens it again after a reconnect, closes it when the tab goes', async () => {
    const id = '0B7F4C1E-8F7A-4D3B-9A51-5D7A3C2E1F00';
    const changes: unknown[] = [];
    const present: string[][] = [];
    const off = liveHub.watchRecord('alarm-report', id, { onChanged: (e) => changes.push(e), onPresence: (n) => present.push(n) });
    await flush();
    expect(last().invoked).toEqual([['openRecord', ['alarm-report', id.toLowerCase()]]]);
    expect(present).toEqual([['Alice Smith']]);

    const e = { Kind: 'alarm-report', Id: id.toLowerCase(), What: 'note', By: 'Bob', ByUserId: 'u-2', At: '2026-11-29T10:00:00.000Z', Note: null };
    last().emit('RecordChanged', e);
    last().emit('RecordChanged', { ...e, Id: '11111111-1111-4111-8111-111111111111' });
    last().emit('RecordPresence', { Kind: 'alarm-report', Id: id.toLowerCase(), Present: [] });
    expect(changes).toEqual([e]);
    expect(present).toEqual([['Alice Smith'], []]);

    // a change by Carol while the connection was down: the reopen names the newest event's time and hands Carol's change on
    fake.state.missed = { By: 'Carol', ByUserId: 'u-3', At: '2026-11-29T10:05:00.000Z' };
    last().drop();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(last().invoked).toEqual([['openRecord', ['alarm-report', id.toLowerCase(), '2026-11-29T10:00:00.000Z']]]);
    expect(changes).toEqual([
      e,
      { Kind: 'alarm-report', Id: id.toLowerCase(), What: 'change', By: 'Carol', ByUserId: 'u-3', At: '2026-11-29T10:05:00.000Z', Note: null },
    ]);

    // the next reopen starts from Carol's change
    fake.state.missed = null;
    last().drop();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(last().invoked).toEqual([['openRecord', ['alarm-report', id.toLowerCase(), '2026-11-29T10:05:00.000Z']]]);
    expect(changes).toHaveLength(2);

    off();
    await flush();
    expect(last().invoked.at(-1)).toEqual(['closeRecord', ['alarm-report', id.toLowerCase()]]);
  });
});
