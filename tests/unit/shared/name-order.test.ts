// The one rule for sorting coded columns by the name shown (src/shared/name-order.ts), which the
// device list (Type, Status) and the alarm list (Trigger, Type, Category, Device, Tier) both use.
import { describe, expect, test } from 'vitest';
import { ALARM_TYPES, ASSET_STATUSES, DEVICE_TYPES, deviceTypeDisplayName, type Lookup } from '../../../src/shared/codes.js';
import { ASSET_STATUS_NAME_RANKS, DEVICE_TYPE_NAME_RANKS, nameRanks, rankCount, statusLabel } from '../../../src/shared/name-order.js';

/** The list's codes in rank order, ties by code. */
const byRank = (ranks: Map<number, number>) => [...ranks].sort((a, b) => a[1] - b[1] || a[0] - b[0]).map(([value]) => value);

describe('nameRanks', () => {
  test('case-insensitive byte order of the names; equal names share a position; positions are dense; unknown codes after all', () => {
    const list: Lookup[] = [
      { Value: 1, Name: 'beta' },
      { Value: 2, Name: 'Alpha' },
      { Value: 3, Name: 'alpha' },
      { Value: 4, Name: 'Zulu' },
      { Value: 5, Name: 'Alpha (2)' },
    ];
    const ranks = nameRanks(list);
    expect([...ranks]).toEqual([
      [1, 2],
      [2, 0],
      [3, 0],
      [4, 3],
      [5, 1],
    ]);
    expect(rankCount(ranks)).toBe(4);
  });

  test('a label ranks by what the screen shows instead of the code name', () => {
    const ranks = nameRanks([
      { Value: 1, Name: 'b' },
      { Value: 2, Name: 'a' },
    ]);
    const relabelled = nameRanks(
      [
        { Value: 1, Name: 'b' },
        { Value: 2, Name: 'a' },
      ],
      (l) => (l.Value === 1 ? 'A' : 'Z'),
    );
    expect(byRank(ranks)).toEqual([2, 1]);
    expect(byRank(relabelled)).toEqual([1, 2]);
  });

  test('device types rank by the names the asset list shows: each badge by its code, in text order', () => {
    const shown = byRank(DEVICE_TYPE_NAME_RANKS).map((v) => deviceTypeDisplayName(DEVICE_TYPES.find((t) => t.Value === v)!));
    expect(shown.slice(0, 5)).toEqual(['badge (140)', 'badge (42)', 'badge (52)', 'eSIM', 'Eview']);
    expect(shown).toEqual([...shown].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
    expect(rankCount(DEVICE_TYPE_NAME_RANKS)).toBe(DEVICE_TYPES.length);
  });

  test('statuses rank by their labels (Allocated, Awaiting Return (Cancelled), …, Returned)', () => {
    const shown = byRank(ASSET_STATUS_NAME_RANKS).map((v) => statusLabel(ASSET_STATUSES.find((s) => s.Value === v)!.Name));
    expect(shown[0]).toBe('Allocated');
    expect(shown[1]).toBe('Awaiting Return (Cancelled)');
    expect(shown.at(-1)).toBe('Returned');
  });

  test('alarm triggers rank by name (Amber Alert first, Welfare Check Failed last)', () => {
    const shown = byRank(nameRanks(ALARM_TYPES)).map((v) => ALARM_TYPES.find((a) => a.Value === v)!.Name);
    expect(shown).toEqual(['Amber Alert', 'Fall Detected', 'Missed Check-in', 'Red Alert', 'SOS Button', 'Welfare Check Failed']);
  });
});
