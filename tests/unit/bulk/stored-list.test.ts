// @vitest-environment jsdom
// The bulk list in localStorage: a batch of scans stores only the rows it adds (the list as a
// reload reads it is complete at once), and the whole list is stored again once scanning pauses;
// any other change stores the whole list at once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
vi.mock('../../../src/app/api/http', () => ({ http: vi.fn() }));
import { createStore } from 'jotai';
import { applyBatch } from '../../../src/app/features/bulk-update/bulk-service';
import {
  BULK_ADDED_KEY,
  BULK_KEY,
  BULK_STORE_PAUSE_MS,
  bulkAtom,
  EMPTY_BULK,
  listIndex,
  placeholderFor,
  readStoredBulk,
  removeIds,
  selectableCount,
  type BulkDevice,
} from '../../../src/app/state/bulk';

const dev = (sn: string): BulkDevice => ({ id: `id-${sn}`, etag: 'e', serialNumber: sn, type: { name: 'T4', value: 30 }, status: { name: 'New', value: 1 } });
const scansOf = (...serials: string[]) => serials.map((serial) => ({ serial, at: 0 }));

beforeEach(() => {
  localStorage.clear();
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('the stored bulk list', () => {
  it('a batch of scans stores its rows apart; a reload reads the whole list; after the pause it is stored whole', () => {
    const store = createStore();
    store.set(bulkAtom, applyBatch(EMPTY_BULK, scansOf('A', 'B'), [dev('A'), dev('B')]).state);
    const stored = localStorage.getItem(BULK_KEY);
    const s1 = store.get(bulkAtom);
    store.set(bulkAtom, applyBatch(s1, scansOf('C', 'ZZ', 'a'), [dev('C'), placeholderFor('ZZ'), dev('A')]).state);
    const s2 = store.get(bulkAtom);
    expect(s2.list).toEqual(['not-found:ZZ', 'id-C', 'id-B', 'id-A']);
    expect(s2.selected).toEqual(['id-C', 'id-B', 'id-A']);
    // the whole list was not written again: only the added rows
    expect(localStorage.getItem(BULK_KEY)).toBe(stored);
    expect(localStorage.getItem(BULK_ADDED_KEY)).not.toBeNull();
    expect(readStoredBulk(localStorage)).toEqual(s2);
    vi.advanceTimersByTime(BULK_STORE_PAUSE_MS + 1);
    expect(localStorage.getItem(BULK_ADDED_KEY)).toBeNull();
    expect(JSON.parse(localStorage.getItem(BULK_KEY)!)).toEqual(s2);
    expect(readStoredBulk(localStorage)).toEqual(s2);
  });

  it('a removal stores the whole list at once; the index follows the list it was asked about', () => {
    const store = createStore();
    store.set(bulkAtom, applyBatch(EMPTY_BULK, scansOf('A', 'B'), [dev('A'), dev('B')]).state);
    const s1 = store.get(bulkAtom);
    store.set(bulkAtom, applyBatch(s1, scansOf('ZZ'), [placeholderFor('ZZ')]).state);
    expect(selectableCount(store.get(bulkAtom))).toBe(2);
    expect(listIndex(store.get(bulkAtom)).byKey.get('ZZ')).toBe('not-found:ZZ');
    store.set(bulkAtom, (s) => removeIds(s, ['id-A']));
    const s3 = store.get(bulkAtom);
    expect(localStorage.getItem(BULK_ADDED_KEY)).toBeNull();
    expect(JSON.parse(localStorage.getItem(BULK_KEY)!)).toEqual(s3);
    expect(listIndex(s3).byKey.has('A')).toBe(false);
    expect(selectableCount(s3)).toBe(1);
    // an older state still answers for its own list
    expect(listIndex(s1).byKey.has('ZZ')).toBe(false);
    expect(s1.list).toEqual(['id-B', 'id-A']);
  });

  it('rows stored apart that are already in the whole list (another page stored it meanwhile) are read once', () => {
    const s = applyBatch(EMPTY_BULK, scansOf('A', 'B'), [dev('A'), dev('B')]).state;
    localStorage.setItem(BULK_KEY, JSON.stringify(s));
    localStorage.setItem(
      BULK_ADDED_KEY,
      JSON.stringify([
        { ids: ['id-B'], selected: ['id-B'], devices: [dev('B')] },
        { ids: ['id-C'], selected: [], devices: [dev('C')] },
      ]),
    );
    expect(readStoredBulk(localStorage)).toEqual({ list: ['id-C', 'id-B', 'id-A'], selected: ['id-B', 'id-A'], devices: { ...s.devices, 'id-C': dev('C') } });
  });
});
