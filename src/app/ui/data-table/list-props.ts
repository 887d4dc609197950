// The DataTable props every server-paged list wires the same way, in one place: paging and sorting
// from the list's state object (a new page size or sort goes back to page 1), and the state of the
// list's query (first load, refetch, error with Retry). Spread them and override what differs:
//   <DataTable {...pagingProps(state, setState)} {...listQueryProps(list, errorMessage)} loading={...} />
import type { SortState } from './types';

type Paged = { page: number; pageSize: number; sort?: SortState };

export function pagingProps<S extends Paged>(state: S, setState: (update: (s: S) => S) => void) {
  return {
    page: state.page,
    pageSize: state.pageSize,
    onPageChange: (page: number) => setState((s) => ({ ...s, page })),
    onPageSizeChange: (pageSize: number) => setState((s) => ({ ...s, pageSize, page: 1 })),
    sort: state.sort,
    onSortChange: (sort: SortState) => setState((s) => ({ ...s, sort, page: 1 })),
  };
}

type ListQuery = { isPending: boolean; isFetching: boolean; isError: boolean; error: unknown; refetch: () => Promise<unknown> };

/** `message` turns the query's error into the text the table shows (the area's error text or the server's message). */
export function listQueryProps(list: ListQuery, message: (error: unknown) => string) {
  return {
    loading: list.isPending,
    fetching: list.isFetching && !list.isPending,
    error: list.isError ? message(list.error) : null,
    onRetry: () => void list.refetch(),
  };
}
