import { describe, expect, it } from 'vitest';
import { pageItems } from '../../../src/app/ui/pagination';

describe('pageItems (boundary count 1, one sibling each side)', () => {
  it('shows every page when there are few', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(2, 3)).toEqual([1, 2, 3]);
    expect(pageItems(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
  it('folds long runs into an ellipsis, keeping the first and last page', () => {
    expect(pageItems(1, 10)).toEqual([1, 2, 3, 4, 5, 'end-ellipsis', 10]);
    expect(pageItems(5, 10)).toEqual([1, 'start-ellipsis', 4, 5, 6, 'end-ellipsis', 10]);
    expect(pageItems(10, 10)).toEqual([1, 'start-ellipsis', 6, 7, 8, 9, 10]);
    expect(pageItems(500, 2000)).toEqual([1, 'start-ellipsis', 499, 500, 501, 'end-ellipsis', 2000]);
  });
  it('a gap of a single page shows that page instead of an ellipsis', () => {
    expect(pageItems(4, 10)).toEqual([1, 2, 3, 4, 5, 'end-ellipsis', 10]);
    expect(pageItems(7, 10)).toEqual([1, 'start-ellipsis', 6, 7, 8, 9, 10]);
  });
  it('never lists more than 7 entries or a page twice', () => {
    for (let count = 1; count <= 40; count++)
      for (let page = 1; page <= count; page++) {
        const items = pageItems(page, count);
        expect(items.length).toBeLessThanOrEqual(7);
        const nums = items.filter((i): i is number => typeof i === 'number');
        expect(new Set(nums).size).toBe(nums.length);
        expect(nums).toContain(page);
        expect(nums[0]).toBe(1);
        expect(nums.at(-1)).toBe(count);
      }
  });
});
