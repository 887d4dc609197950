// setBounded: the maps the server keeps bounded (prepared statements, session states, verified hub
// tokens, SQL texts) hold at most their limit and give up the entry set longest ago.
import { describe, expect, test } from 'vitest';
import { setBounded } from '../../../src/server/platform/util.js';

describe('setBounded', () => {
  test('keeps at most max entries, the oldest set going first, and returns the value', () => {
    const m = new Map<string, number>();
    for (const [i, k] of ['a', 'b', 'c'].entries()) expect(setBounded(m, k, i, 2)).toBe(i);
    expect([...m]).toEqual([
      ['b', 1],
      ['c', 2],
    ]);
  });

  test('a key deleted and set again is the newest; setting a present key adds nothing', () => {
    const m = new Map([
      ['a', 0],
      ['b', 1],
    ]);
    m.delete('a');
    setBounded(m, 'a', 2, 2);
    setBounded(m, 'c', 3, 2);
    expect([...m.keys()]).toEqual(['a', 'c']);
    setBounded(m, 'c', 4, 2);
    expect([...m]).toEqual([
      ['a', 2],
      ['c', 4],
    ]);
  });
});
