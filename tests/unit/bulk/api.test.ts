// The bulk page's requests go to endpoints of the contract, with its method; unknown serials get placeholders in order.
import { describe, expect, it, vi } from 'vitest';
vi.mock('../../../src/app/api/http', () => ({ http: vi.fn(async () => ({ devices: [], updated: 0 })) }));
import { http } from '../../../src/app/api/http';
import { ENDPOINTS } from '../../../src/shared/schemas/endpoints';
import * as api from '../../../src/app/features/bulk-update/api';

describe('bulk update api', () => {
  it('calls only contract endpoints', async () => {
    await api.getDevicesBySerials(['A1']);
    await api.getDeviceIdBySerial('A1');
    await api.changeStatusMany(5, [{ id: 'i', etag: 'e' }]);
    await api.changeOrderNumberMany('SO-1', [{ id: 'i', etag: 'e' }]);
    await api.changeDeviceType(['A1'], 30);
    const calls = vi.mocked(http).mock.calls.map(([path, o]) => `${o?.method ?? 'GET'} ${path}`);
    for (const c of calls) expect(Object.keys(ENDPOINTS)).toContain(c);
    expect(calls).toHaveLength(5);
  });
  it('answers one row per serial asked, in order, with placeholders for unknown serials', async () => {
    vi.mocked(http).mockResolvedValueOnce({
      devices: [
        {
          id: 'x',
          etag: 'e1',
          serialNumber: 'b2',
          imei: null,
          type: { name: 'T4', value: 30 },
          status: { name: 'New', value: 1 },
          orderNumber: null,
          customerName: null,
          isUserAssigned: false,
        },
      ],
    });
    const r = await api.getDevicesBySerials(['A1', 'B2']);
    expect(r.map((d) => [d.id, d.etag])).toEqual([
      ['not-found:A1', 'not-found'],
      ['x', 'e1'],
    ]);
  });
});
