import { describe, expect, it } from 'vitest';
import {
  addMany,
  addOne,
  EMPTY_BULK,
  isAllSelected,
  placeholderFor,
  removeIds,
  setSelected,
  withScan,
  splitOffer,
  pendingRows,
  isLookingUp,
  isRepeatScan,
  type BulkDevice,
} from '../../../src/app/state/bulk';
import { at } from '../../helpers/lists';

const dev = (n: number): BulkDevice => ({
  id: `id-${n}`,
  etag: `e${n}`,
  serialNumber: `SN${n}`,
  type: { name: 'T4', value: 30 },
  status: { name: 'New', value: 1 },
});

describe('bulk list rules (spec §4 Bulk selection)', () => {
  it('adding one puts it first in the bulk list and the selected list; a second add of the same serial changes nothing', () => {
    let s = addOne(EMPTY_BULK, dev(1)).state;
    s = addOne(s, dev(2)).state;
    expect(s.list).toEqual(['id-2', 'id-1']);
    expect(s.selected).toEqual(['id-2', 'id-1']);
    const again = addOne(s, { ...dev(1) });
    expect(again.added).toBe(false);
    expect(again.state).toBe(s);
  });
  it('placeholders go on the list but are never selected, and count as already added by serial', () => {
    let s = addOne(EMPTY_BULK, placeholderFor('NOPE1')).state;
    expect(s.list).toEqual(['not-found:NOPE1']);
    expect(s.selected).toEqual([]);
    expect(addOne(s, placeholderFor('nope1')).added).toBe(false);
    s = setSelected(s, ['not-found:NOPE1']);
    expect(s.selected).toEqual([]);
  });
  it('removing removes from both lists', () => {
    let s = addMany(EMPTY_BULK, [dev(1), dev(2), dev(3)]).state;
    s = removeIds(s, ['id-2']);
    expect(s.list).toEqual(['id-1', 'id-3']);
    expect(s.selected).toEqual(['id-1', 'id-3']);
    expect(s.devices['id-2']).toBeUndefined();
  });
  it('adding many merges without duplicates and selects all', () => {
    let s = addOne(EMPTY_BULK, dev(1)).state;
    s = setSelected(s, []);
    const r = addMany(s, [dev(2), dev(1), dev(3), dev(2), placeholderFor('X9')]);
    expect(r.state.list).toEqual(['id-2', 'id-3', 'not-found:X9', 'id-1']);
    expect(r.state.selected).toEqual(['id-2', 'id-3', 'id-1']);
    expect(r.omitted).toEqual(['SN1', 'SN2']);
  });
  it('select-all is checked when the selected ids on the page equal the page size or the total count', () => {
    expect(isAllSelected(10, 10, 50)).toBe(true);
    expect(isAllSelected(3, 10, 3)).toBe(true);
    expect(isAllSelected(3, 10, 4)).toBe(false);
    expect(isAllSelected(0, 10, 0)).toBe(false);
  });
});

describe('select all with placeholders on the list', () => {
  it('selects every selectable row, and a second select-all selects none', async () => {
    const { nextSelection } = await import('../../../src/app/state/bulk');
    let s = addMany(EMPTY_BULK, [dev(1), placeholderFor('X1'), dev(2)]).state;
    s = setSelected(s, []);
    const all = new Set(s.list);
    s = nextSelection(s, all);
    expect(s.selected).toEqual(['id-1', 'id-2']);
    s = nextSelection(s, all);
    expect(s.selected).toEqual([]);
    s = nextSelection(s, new Set(['id-2']));
    expect(s.selected).toEqual(['id-2']);
  });
});

describe('scan offer (scans outside the bulk page)', () => {
  it('gathers every scan once, in scan order; a repeat adds nothing', () => {
    let offer: string[] = [];
    for (const s of ['SC0000001', ' sc0000002 ', 'SC0000001', 'SC0000003', '']) offer = withScan(offer, s);
    expect(offer).toEqual(['SC0000001', 'sc0000002', 'SC0000003']);
    const same = withScan(offer, 'SC0000002');
    expect(same).toBe(offer);
  });
  it('offers only scans in the serial number format; pieces of a split burst are doubtful', () => {
    expect(splitOffer(['SG6211831997', '0174609', 'G6211831997', 'sc0000002', 'ID12345678'])).toEqual({
      serials: ['SG6211831997', 'sc0000002', 'ID12345678'],
      doubtful: ['0174609', 'G6211831997'],
    });
  });
});

describe('scans waiting for the server', () => {
  const dev = (serial: string): BulkDevice => ({
    id: `id-${serial}`,
    etag: 'e',
    serialNumber: serial,
    type: { name: 'T4', value: 30 },
    status: { name: 'New', value: 1 },
  });
  it('show at once as "looking up" rows where they will land: newest scan first, a CSV in file order, no repeats', () => {
    const s = addOne(EMPTY_BULK, dev('ON1')).state;
    const rows = pendingRows(s, [
      { serial: 'A1' },
      { serial: 'on1' },
      { serial: 'C1', many: true },
      { serial: 'C2', many: true },
      { serial: 'a1' },
      { serial: 'B1' },
    ]);
    expect(rows.map((r) => r.serialNumber)).toEqual(['B1', 'C1', 'C2', 'A1']);
    expect(rows.every(isLookingUp)).toBe(true);
    expect(at(rows, 0).status.name).toBe('Looking up…');
  });
  it('a repeat is known without the server: on the list, or earlier in the queue', () => {
    const s = addOne(EMPTY_BULK, dev('ON1')).state;
    expect(isRepeatScan(s, [], ' on1 ')).toBe(true);
    expect(isRepeatScan(s, [{ serial: 'Q1' }], 'q1')).toBe(true);
    expect(isRepeatScan(s, [{ serial: 'Q1' }], 'Q2')).toBe(false);
  });
});
