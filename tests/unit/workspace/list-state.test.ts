// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeListState, decodeFilterValue, encodeFilterValue, encodeListState, type ListState } from '../../../src/app/workspace/list-state';
import * as M from '../../../src/app/workspace/model';
import { resolveHref } from '../../../src/app/workspace/url';

const INITIAL: ListState = { page: 1, pageSize: 25, sort: { key: 'Date', desc: true }, filters: { dateRange: '2' } };

describe('list state in the link', () => {
  it('the defaults are no query at all', () => {
    expect(encodeListState(INITIAL, INITIAL)).toBe('');
    expect(decodeListState('', INITIAL)).toEqual(INITIAL);
  });

  it('writes only what differs, readably, and reads it back', () => {
    const s: ListState = { page: 3, pageSize: 50, sort: { key: 'Name', desc: false }, filters: { search: 'ann smith', tiers: ['1', '2'], migrated: true } };
    const q = encodeListState(s, INITIAL);
    expect(q).toBe('?page=3&size=50&sort=Name&f.search=ann+smith&f.tiers=%5B%221%22%2C%222%22%5D&f.migrated=true');
    expect(decodeListState(q, INITIAL)).toEqual(s);
    expect(decodeListState('?sort=-Serial', INITIAL).sort).toEqual({ key: 'Serial', desc: true });
  });

  it('filters cleared when the defaults are not empty stay cleared', () => {
    const q = encodeListState({ ...INITIAL, filters: {} }, INITIAL);
    expect(q).toBe('?f=');
    expect(decodeListState(q, INITIAL).filters).toEqual({});
  });

  it('a bare search (no filter bar) is q', () => {
    const init = { page: 1, pageSize: 25, sort: { key: 'UserName', desc: false }, search: '' };
    const q = encodeListState({ ...init, search: 'isla' }, init);
    expect(q).toBe('?q=isla');
    expect(decodeListState(q, init).search).toBe('isla');
  });

  it('nonsense in the link falls back to the defaults', () => {
    expect(decodeListState('?page=-4&size=abc&sort=-', INITIAL)).toEqual(INITIAL);
    expect(decodeListState('?page=2.5&size=100000', INITIAL)).toEqual(INITIAL);
  });

  it('any filter value survives the round trip, text that looks like JSON included', () => {
    const value = fc.oneof(fc.string(), fc.boolean(), fc.array(fc.string()), fc.record({ value: fc.string(), label: fc.string() }));
    fc.assert(
      fc.property(value, (v) => {
        expect(decodeFilterValue(encodeFilterValue(v))).toEqual(v);
      }),
    );
    for (const v of ['true', '12', '"x"', '[1]', '{"a":1}', 'null']) expect(decodeFilterValue(encodeFilterValue(v))).toBe(v);
  });

  it('the tab keeps its record and takes the query; the same record opened with a query takes it, without one keeps its own', () => {
    let s = M.openTab(M.emptyWorkspace(), resolveHref('/alarm-reports')!);
    const id = M.focusedTab(s)!.id;
    s = M.setTabSearch(s, id, '?page=2');
    expect(M.focusedTab(s)!.href).toBe('/alarm-reports?page=2');
    s = M.openTab(s, resolveHref('/alarm-reports')!);
    expect(M.focusedTab(s)!.href).toBe('/alarm-reports?page=2');
    s = M.openTab(s, resolveHref('/alarm-reports?sort=-Tier')!);
    expect(M.focusedTab(s)!).toMatchObject({ id, href: '/alarm-reports?sort=-Tier' });
    s = M.setTabSearch(s, id, '');
    expect(M.focusedTab(s)!.href).toBe('/alarm-reports');
    const restored = M.restoreWorkspace(JSON.parse(M.serialiseWorkspace(M.setTabSearch(s, id, '?page=5'))), resolveHref)!;
    expect(M.focusedTab(restored)!.href).toBe('/alarm-reports?page=5');
  });
});
