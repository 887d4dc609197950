import { describe, expect, it, vi } from 'vitest';
vi.mock('../../../src/app/api/http', () => ({ http: vi.fn() }));
import { applyBatch } from '../../../src/app/features/bulk-update/bulk-service';
import { EMPTY_BULK, placeholderFor, type BulkDevice } from '../../../src/app/state/bulk';

const dev = (sn: string): BulkDevice => ({ id: `id-${sn}`, etag: 'e', serialNumber: sn, type: { name: 'T4', value: 30 }, status: { name: 'New', value: 1 } });

describe('applying resolved scans', () => {
  it('gives added / already / not-found per scan, in order, newest first on the list', () => {
    const scans = ['A', 'B', 'A', 'ZZ', 'B'].map((serial) => ({ serial, at: 0 }));
    const results = [dev('A'), dev('B'), dev('A'), placeholderFor('ZZ'), dev('B')];
    const { state, outcomes } = applyBatch(EMPTY_BULK, scans, results);
    expect(outcomes.map((o) => `${o.serial}:${o.kind}`)).toEqual(['A:added', 'B:added', 'A:already', 'ZZ:not-found', 'B:already']);
    expect(state.list).toEqual(['not-found:ZZ', 'id-B', 'id-A']);
    expect(state.selected).toEqual(['id-B', 'id-A']);
  });
});
