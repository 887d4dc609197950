// @vitest-environment jsdom
// A scan longer than any serial can be (a scanner's serials run together, a wrong barcode) is
// refused by the server's get-list-by-serials for the whole batch. The queue must not ask for it:
// it becomes a "not found" row in its place, and the scans around it are looked up and added in
// scan order, none left waiting.
import { afterEach, describe, expect, it, vi } from 'vitest';

const asked: string[][] = [];
vi.mock('../../../src/app/api/http', () => ({
  http: vi.fn(async (_path: string, opts: { body: { serials: string[] } }) => {
    const serials = opts.body.serials;
    asked.push(serials);
    // the server's rule (deviceSerialsBody): any serial over SERIAL_MAX fails the whole request
    if (serials.some((s) => s.length > 64)) throw Object.assign(new Error('Bad Request'), { status: 400 });
    return {
      devices: serials.map((s) => ({
        id: `id-${s}`,
        etag: `"${s}"`,
        serialNumber: s,
        deviceType: { name: 'SG620', value: 620 },
        assetStatus: { name: 'New', value: 1 },
      })),
    };
  }),
}));

import { appStore } from '../../../src/app/state/store';
import { bulkAtom, bulkWarningsAtom, isPlaceholder } from '../../../src/app/state/bulk';
import { PENDING_KEY } from '../../../src/app/features/bulk-update/scan-queue';
import { scanSerial } from '../../../src/app/features/bulk-update/bulk-service';
import { SERIAL_MAX } from '../../../src/shared/schemas/devices';

afterEach(() => vi.useRealTimers());

describe('a scan longer than a serial can be', () => {
  it('is not sent to the server: it is added as not found, and the scans before and after it are added in order', async () => {
    const runTogether = 'SG6400329151SG7502040642SG7502040638BG521106845ID03578229SG64003291';
    expect(runTogether.length).toBeGreaterThan(SERIAL_MAX);
    scanSerial('A100');
    scanSerial(runTogether);
    scanSerial('B200');
    await vi.waitFor(() => expect(JSON.parse(localStorage.getItem(PENDING_KEY) ?? '[]')).toEqual([]), { timeout: 3000 });
    expect(asked.flat()).not.toContain(runTogether);
    const s = appStore.get(bulkAtom);
    // newest first, as the bulk table lists them
    expect(s.list.map((id) => s.devices[id]?.serialNumber)).toEqual(['B200', runTogether, 'A100']);
    expect(isPlaceholder(s.devices[s.list[1]!])).toBe(true);
    expect(appStore.get(bulkWarningsAtom).notFound).toEqual([runTogether]);
  });
});
