import { describe, expect, it, vi } from 'vitest';
vi.mock('../../../src/app/api/http', () => ({ http: vi.fn() }));
import { applyBatch } from '../../../src/app/features/bulk-update/bulk-service';
import { addMany, addOne, EMPTY_BULK, isPlaceholder, placeholderFor, type BulkDevice, type BulkState } from '../../../src/app/state/bulk';
import { rng } from '../../bench/stats';

const dev = (sn: string): BulkDevice => ({ id: `id-${sn}`, etag: 'e', serialNumber: sn, type: { name: 'T4', value: 30 }, status: { name: 'New', value: 1 } });

/** The rule applyBatch keeps: each scan added in turn (addOne), a CSV's run of rows with addMany. */
function oneByOne(s: BulkState, scans: { serial: string; many?: boolean }[], results: BulkDevice[]) {
  let state = s;
  const kinds: string[] = [];
  let i = 0;
  while (i < scans.length) {
    if (scans[i]!.many) {
      let j = i;
      while (j < scans.length && scans[j]!.many) j++;
      const r = addMany(state, results.slice(i, j));
      state = r.state;
      const added = new Set(r.added.map((d) => d.id));
      for (const d of results.slice(i, j)) {
        kinds.push(!added.has(d.id) ? 'already' : isPlaceholder(d) ? 'not-found' : 'added');
        added.delete(d.id);
      }
      i = j;
    } else {
      const r = addOne(state, results[i]!);
      state = r.state;
      kinds.push(!r.added ? 'already' : isPlaceholder(results[i]) ? 'not-found' : 'added');
      i++;
    }
  }
  return { state, kinds };
}

describe('applying resolved scans', () => {
  it('gives added / already / not-found per scan, in order, newest first on the list', () => {
    const scans = ['A', 'B', 'A', 'ZZ', 'B'].map((serial) => ({ serial, at: 0 }));
    const results = [dev('A'), dev('B'), dev('A'), placeholderFor('ZZ'), dev('B')];
    const { state, outcomes } = applyBatch(EMPTY_BULK, scans, results);
    expect(outcomes.map((o) => `${o.serial}:${o.kind}`)).toEqual(['A:added', 'B:added', 'A:already', 'ZZ:not-found', 'B:already']);
    expect(state.list).toEqual(['not-found:ZZ', 'id-B', 'id-A']);
    expect(state.selected).toEqual(['id-B', 'id-A']);
  });

  it('a batch of only repeats gives back the same state (nothing to store)', () => {
    const s = applyBatch(EMPTY_BULK, [{ serial: 'A', at: 0 }], [dev('A')]).state;
    const again = applyBatch(s, [{ serial: 'a ', at: 1 }], [dev('A')]);
    expect(again.state).toBe(s);
    expect(again.outcomes.map((o) => o.kind)).toEqual(['already']);
  });

  it('a long batch onto a long list ends as adding each scan in turn would (order, selection, rows, outcomes), CSV runs included', () => {
    const r = rng(7);
    for (let round = 0; round < 40; round++) {
      const pool = Array.from({ length: 60 }, (_, k) => (k % 9 === 4 ? placeholderFor(`ZZ${k}`) : dev(`S${k}`)));
      const start = addMany(
        EMPTY_BULK,
        pool.filter(() => r() < 0.3),
      ).state;
      const picked = Array.from({ length: 1 + Math.floor(r() * 80) }, () => pool[Math.floor(r() * pool.length)]!);
      let many = false;
      const scans = picked.map((d) => {
        if (r() < 0.15) many = !many;
        return { serial: r() < 0.2 ? ` ${d.serialNumber.toLowerCase()}` : d.serialNumber, at: 0, ...(many ? { many: true } : {}) };
      });
      const want = oneByOne(start, scans, picked);
      const got = applyBatch(start, scans, picked);
      expect(got.state.list).toEqual(want.state.list);
      expect(got.state.selected).toEqual(want.state.selected);
      expect(got.state.devices).toEqual(want.state.devices);
      expect(got.outcomes.map((o) => o.kind)).toEqual(want.kinds);
      expect(got.outcomes.map((o) => o.serial)).toEqual(scans.map((s) => s.serial));
    }
  });
});
