// Checked list and table access for the demo generator. The generator only ever asks for indexes
// and keys that exist by construction (an index drawn below the length, a device type from the
// generator's own tables); these helpers keep that promise visible to the type checker and fail
// loudly, naming what was asked for, if it is ever broken.

/** list[i]; a RangeError when i is not an index of list. */
export function itemAt<T>(list: readonly T[], i: number): T {
  if (!Number.isInteger(i) || i < 0 || i >= list.length) throw new RangeError(`seed: index ${i} is outside a list of ${list.length}`);
  return list[i] as T; // in range: checked just above
}

/** The pairs [a[i], b[i]]; the lists must have the same length. */
export function zip<A, B>(a: readonly A[], b: readonly B[]): [A, B][] {
  if (a.length !== b.length) throw new RangeError(`seed: cannot pair a list of ${a.length} with a list of ${b.length}`);
  return a.map((x, i) => [x, b[i] as B]); // same length: b[i] exists
}

/** table[key]; an Error naming `what` when the table has no such key. */
export function entryOf<K extends PropertyKey, V>(table: Readonly<Partial<Record<K, V>>>, key: K, what: string): V {
  const v = table[key];
  if (v === undefined) throw new Error(`seed: no ${what} for ${String(key)}`);
  return v;
}
