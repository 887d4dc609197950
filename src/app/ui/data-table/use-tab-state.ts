// A page's passing state that belongs to one workspace tab but not in its link (e.g. the rows
// selected for printing): it survives the tab's page unmounting and mounting again (pane moves, tab
// switches) but not a reload. A list's filters, sort and page are in the link (useListState).
import { useCallback, useState, type SetStateAction } from 'react';

const store = new Map<string, unknown>();

export function useTabState<T>(tabId: string, key: string, initial: T): [T, (next: SetStateAction<T>) => void] {
  const id = `${tabId}::${key}`;
  const [value, setValue] = useState<T>(() => (store.has(id) ? (store.get(id) as T) : initial));
  const set = useCallback(
    (next: SetStateAction<T>) =>
      setValue((prev) => {
        const v = typeof next === 'function' ? (next as (p: T) => T)(prev) : next;
        store.set(id, v);
        return v;
      }),
    [id],
  );
  return [value, set];
}

/** Forget a closed tab's list state. */
export function dropTabState(tabId: string) {
  for (const k of [...store.keys()]) if (k.startsWith(`${tabId}::`)) store.delete(k);
  try {
    sessionStorage.removeItem(`${tabId}::scroll`); // the list's scroll position (DataTable scrollKey)
  } catch {
    // no storage: nothing kept
  }
}
