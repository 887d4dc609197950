// Small helpers every benchmark uses: a seeded PRNG (mulberry32), percentiles and checked list access.

/** Deterministic numbers in [0, 1) from a seed, so every run types and queries the same things. */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Nearest-rank percentile (p in 0..100) of an already sorted list; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? NaN; // i is in range unless the list is empty
}

/** Same, for an unsorted list. */
export const percentileOf = (xs: readonly number[], p: number) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    p,
  );

/** xs[i]; a RangeError when i is not an index of xs. */
export function itemAt<T>(xs: readonly T[], i: number): T {
  if (!Number.isInteger(i) || i < 0 || i >= xs.length) throw new RangeError(`index ${i} is outside a list of ${xs.length}`);
  return xs[i] as T; // in range: checked just above
}

/** A uniformly chosen item of a non-empty list. */
export const pick = <T>(r: () => number, xs: readonly T[]): T => itemAt(xs, Math.floor(r() * xs.length));
