// The demo generator's seeded PRNG and checked list access: the stream is pinned to golden values
// (a refactor that changes it would silently change every demo data set), and the helpers throw
// on what would otherwise be an undefined read.
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { Rng } from '../../src/server/seed/rng.js';
import { entryOf, itemAt, zip } from '../../src/server/seed/lists.js';

describe('Rng', () => {
  test('the stream for a seed is pinned: same values as when the demo data was first generated', () => {
    const r = new Rng(7, 'golden', 1);
    expect([r.u32(), r.u32(), r.u32()]).toEqual([3082113615, 969558794, 1114538774]);
    expect(r.uuid()).toBe('f41e0f3f-80f0-45c8-b934-fa91bb7d49b9');
    expect(r.hex(5)).toBe('edf781702c');
    expect(r.etag()).toBe('"692c2ce1-8ee8-4707-a756-d2745aae0aa5"');
    expect(Array.from({ length: 8 }, () => r.pick(['a', 'b', 'c', 'd', 'e'])).join('')).toBe('dbddebea');
    expect(
      Array.from({ length: 8 }, () =>
        r.weighted([
          ['x', 1],
          ['y', 2],
          ['z', 0.5],
        ] as const),
      ).join(''),
    ).toBe('yxxyzyyy');
    expect(r.sample([1, 2, 3, 4, 5, 6, 7, 8, 9], 4)).toEqual([1, 3, 4, 8]);
    expect([r.int(1, 6), r.int(100, 200)]).toEqual([4, 131]);
    expect(r.digits(12)).toBe('135852936573');
  });

  test('hex keeps leading zeros (2,000 draws, about 1 in 16 starts with 0)', () => {
    const r = new Rng(7, 'hex');
    const s = Array.from({ length: 2000 }, () => r.hex(4));
    expect(s.every((x) => /^[0-9a-f]{8}$/.test(x))).toBe(true);
    expect(s.filter((x) => x.startsWith('0'))).toHaveLength(104);
    expect(createHash('sha256').update(s.join(',')).digest('hex')).toBe('d5315c38db9ec9aec1a20599b2537405f554a81f73683113a9f93418bd8810a6');
  });

  test('pick and weighted throw on an empty list instead of returning undefined', () => {
    const r = new Rng(1);
    expect(() => r.pick([])).toThrow(RangeError);
    expect(() => r.weighted([])).toThrow(RangeError);
    expect(r.pick([undefined])).toBeUndefined(); // a list holding undefined is not empty
  });

  test('weighted never returns a zero-weight item and always returns one of the items', () => {
    const r = new Rng(3, 'w');
    const seen = new Set(
      Array.from({ length: 500 }, () =>
        r.weighted([
          ['a', 1],
          ['never', 0],
          ['b', 1],
        ] as const),
      ),
    );
    expect([...seen].sort()).toEqual(['a', 'b']);
  });

  test('sample returns distinct items and clips n to the list length', () => {
    const r = new Rng(5);
    const s = r.sample(['a', 'b', 'c'], 10);
    expect([...s].sort()).toEqual(['a', 'b', 'c']);
    expect(r.sample([], 2)).toEqual([]);
  });
});

describe('checked list access', () => {
  test('itemAt returns the item, and throws for an index outside the list', () => {
    expect(itemAt(['a', 'b'], 1)).toBe('b');
    expect(() => itemAt(['a', 'b'], 2)).toThrow('index 2 is outside a list of 2');
    expect(() => itemAt(['a', 'b'], -1)).toThrow(RangeError);
    expect(() => itemAt(['a', 'b'], 0.5)).toThrow(RangeError);
  });

  test('zip pairs by position and refuses lists of different lengths', () => {
    expect(zip(['a', 'b'], [1, 2])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    expect(() => zip(['a'], [1, 2])).toThrow('cannot pair a list of 1 with a list of 2');
  });

  test('entryOf returns the entry, and names what is missing', () => {
    const table: Record<number, string> = { 3: 'three' };
    expect(entryOf(table, 3, 'name')).toBe('three');
    expect(() => entryOf(table, 4, 'name')).toThrow('seed: no name for 4');
  });
});
