// The shapes most queries take. A record's and a list's failures are the page's to show, not a toast.
import { keepPreviousData, queryOptions, type QueryKey } from '@tanstack/react-query';
import { isValidId } from '../../shared/codes';
import { http } from './http';

/**
 * The query keys of a kind of record that has a list and single records, by TanStack's hierarchy:
 * `all` is everything of the kind, `lists()` every page of the list under any filter, `list(filter)`
 * one filter's pages, `details()` every single record, `detail(id)` one.
 */
export const recordListKeys = <F>(root: string) => ({
  all: [root] as const,
  lists: () => [root, 'list'] as const,
  list: (filter: F) => [root, 'list', filter] as const,
  details: () => [root, 'detail'] as const,
  detail: (id: string) => [root, 'detail', id] as const,
});

/** One record by its id (a device, a customer's details, an alarm report…): runs only with a valid id (spec §5). */
export const recordQuery = <T, K extends QueryKey>(queryKey: K, id: string, fetch: (signal: AbortSignal) => Promise<T>) =>
  queryOptions({ queryKey, queryFn: ({ signal }) => fetch(signal), enabled: isValidId(id), meta: { silent: true } });

/** A page of a list: the previous page stays on screen while the next loads; the list shows its own error state. */
export const listQuery = <T, K extends QueryKey>(queryKey: K, fetch: (signal: AbortSignal) => Promise<T>, enabled = true) =>
  queryOptions({ queryKey, queryFn: ({ signal }) => fetch(signal), enabled, placeholderData: keepPreviousData, meta: { silent: true } });

/** A lookup list (types, statuses…) read by GET: fetched once, never refetched on window focus (spec §7). */
export const lookupQuery = <T>(queryKey: QueryKey, path: string) =>
  queryOptions({ queryKey, queryFn: ({ signal }) => http<T>(path, { signal }), staleTime: Infinity, refetchOnWindowFocus: false });
