// formatCount groups whole numbers itself (a page's first Intl.NumberFormat is costly): it must
// write every number as Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 }) does.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatCount } from '../../../src/shared/numbers';

const intl = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });

describe('formatCount writes what Intl writes', () => {
  it('whole numbers, either sign, up to 2^53', () => {
    fc.assert(fc.property(fc.maxSafeInteger(), (n) => formatCount(n) === intl.format(n)));
    fc.assert(fc.property(fc.integer({ min: -100_000, max: 100_000 }), (n) => formatCount(n) === intl.format(n)));
  });

  it('fractions, -0 and the numbers beyond', () => {
    fc.assert(fc.property(fc.double(), (n) => formatCount(n) === intl.format(n)));
    for (const n of [0, -0, 999, 1000, -1000, 2.5, -2.5, 0.4, -0.4, 2 ** 53, -(2 ** 53), 1e21, NaN, Infinity, -Infinity])
      expect(formatCount(n), String(n)).toBe(intl.format(n));
  });
});
