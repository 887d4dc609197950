// The serials of every device a list's filters select (the asset list's `b l`): page after page
// by Next (`after` the last row), the filter as the list sends it, never more than the bulk limit.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listedSerials } from '../../../src/app/api/devices';
import { MAX_BULK } from '../../../src/shared/schemas/devices';
import { json, resetApp, stubFetch } from '../app-core/helpers';

afterEach(() => {
  vi.unstubAllGlobals();
  resetApp();
});

/** A server holding `total` devices D00000…; it answers get-list by `after` as the real one does. */
function server(total: number) {
  const ids = Array.from({ length: total }, (_, i) => `D${String(i).padStart(5, '0')}`);
  return stubFetch((c) => {
    const body = JSON.parse(c.body ?? '{}') as { pageSize: number; after?: string };
    const from = body.after ? ids.indexOf(body.after) + 1 : 0;
    const rows = ids.slice(from, from + body.pageSize).map((id) => ({ id, serialNumber: `S-${id}` }));
    return json({ devices: rows, totalCount: total });
  });
}

describe('listedSerials', () => {
  it('reads every page by Next with the list filter, in the list order', async () => {
    const { calls } = server(250);
    const r = await listedSerials({ page: 3, pageSize: 10, statusIds: [3], orderBy: 'SerialNumber', desc: false, fleetHealth: 'silent' });
    expect(r.total).toBe(250);
    expect(r.serials).toHaveLength(250);
    expect(r.serials[0]).toBe('S-D00000');
    expect(r.serials[249]).toBe('S-D00249');
    const sent = calls.map((c) => JSON.parse(c.body!) as Record<string, unknown>);
    expect(sent.map((b) => [b.page, b.pageSize, b.after])).toEqual([
      [1, 100, undefined],
      [2, 100, 'D00099'],
      [3, 100, 'D00199'],
    ]);
    for (const b of sent) expect(b).toMatchObject({ statusIds: [3], orderBy: 'SerialNumber', fleetHealth: 'silent' });
  });

  it('stops at the bulk limit', async () => {
    server(MAX_BULK + 150);
    const r = await listedSerials({ page: 1, pageSize: 10 });
    expect(r.total).toBe(MAX_BULK + 150);
    expect(r.serials).toHaveLength(MAX_BULK);
  });

  it('nothing selected: no serials', async () => {
    const { calls } = server(0);
    expect(await listedSerials({ page: 1, pageSize: 10 })).toEqual({ serials: [], total: 0 });
    expect(calls).toHaveLength(1);
  });
});
