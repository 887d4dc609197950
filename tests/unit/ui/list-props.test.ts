import { describe, expect, it } from 'vitest';
import { listQueryProps, pagingProps } from '../../../src/app/ui/data-table/list-props';

describe('list props', () => {
  it('a new page size or sort goes back to page 1; a page change keeps the rest', () => {
    let state = { page: 4, pageSize: 25, sort: { key: 'Name', desc: false }, filters: { q: 'x' } };
    const set = (update: (s: typeof state) => typeof state) => (state = update(state));
    pagingProps(state, set).onPageChange(7);
    expect(state).toMatchObject({ page: 7, pageSize: 25, filters: { q: 'x' } });
    pagingProps(state, set).onPageSizeChange(100);
    expect(state).toMatchObject({ page: 1, pageSize: 100 });
    pagingProps({ ...state, page: 3 }, set).onSortChange({ key: 'Tier', desc: true });
    expect(state).toMatchObject({ page: 1, sort: { key: 'Tier', desc: true } });
  });

  it('loading on the first load only, the error as the area words it, Retry refetches', async () => {
    let refetched = 0;
    const query = { isPending: false, isFetching: true, isError: true, error: new Error('boom'), refetch: async () => void refetched++ };
    const props = listQueryProps(query, (e) => `Failed: ${(e as Error).message}`);
    expect(props).toMatchObject({ loading: false, fetching: true, error: 'Failed: boom' });
    props.onRetry();
    expect(refetched).toBe(1);
    expect(listQueryProps({ ...query, isPending: true, isError: false }, String)).toMatchObject({ loading: true, fetching: false, error: null });
  });
});
