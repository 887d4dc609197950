// Typed access to lists and regex groups in tests (the project checks with noUncheckedIndexedAccess).
// Each fails with a clear message instead of handing `undefined` to the next line.

/** The item at `index` (negative counts from the end); throws when the list is too short. */
export function at<T>(list: readonly T[], index: number): T {
  if (index >= list.length || index < -list.length) throw new Error(`expected an item at index ${index}, the list has ${list.length}`);
  return list.at(index) as T;
}

/** The first item; throws when the list is empty. */
export const first = <T>(list: readonly T[]): T => at(list, 0);

/** The last item; throws when the list is empty. */
export const last = <T>(list: readonly T[]): T => at(list, -1);

/** The one item of a list that must hold exactly one; throws otherwise. */
export function only<T>(list: readonly T[]): T {
  if (list.length !== 1) throw new Error(`expected exactly one item, the list has ${list.length}`);
  return list[0] as T;
}

/** Capture group `index` of the first match of `re` in `text`; throws when there is none. */
export function group(re: RegExp, text: string, index = 1): string {
  const value = re.exec(text)?.[index];
  if (value === undefined) throw new Error(`no match for ${re} (group ${index}) in: ${text}`);
  return value;
}
