// User Management: the person list (spec document 1 §2 "Person list page", §4 list sorting).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Heading } from '@radix-ui/themes';
import { DataTable } from '../../ui/data-table/data-table';
import type { SortState } from '../../ui/data-table/types';
import { useDebouncedValue } from '../../ui/data-table/use-debounced-value';
import { useListState } from '../../workspace/list-state';
import { useTab } from '../../workspace/tab-context';
import { openRoute } from '../../workspace/actions';
import { useCan } from '../../state/session';
import { errorMessage } from '../../api/query-client';
import { getHref } from '../../paths';
import { MSG } from '../../../shared/messages';
import { DEFAULT_PAGE_SIZE } from '../../../shared/codes';
import { MAX_SEARCH_LENGTH } from '../../../shared/schemas/common';
import { P, ROLE_IDS, type RoleName } from '../../../shared/permissions';
import { dictionariesQuery } from '../../api/reference';
import type { PersonListItem } from '../../../shared/schemas/persons';
import { personListQuery, type PersonListParams } from './api';

import { personColumns, ROLE_SORT_PREFIX } from './person-columns';
import { listQueryProps, pagingProps } from '../../ui/data-table/list-props';
export { ROLE_COLUMNS } from './person-columns';
export const SEARCH_DEBOUNCE_MS = 300;

type ListState = { page: number; pageSize: number; sort: SortState; search: string };
const INITIAL: ListState = { page: 1, pageSize: DEFAULT_PAGE_SIZE, sort: { key: 'UserName', desc: false }, search: '' };

export { formatLastLogin } from './person-columns';

export function PersonListPage() {
  const tab = useTab();
  const can = useCan();
  const { setTitle } = tab;
  useEffect(() => setTitle(MSG.personsTitle), [setTitle]);

  const [state, setState, scrollKey] = useListState<ListState>(INITIAL);
  const [searchText, setSearchText] = useState(state.search);
  const debounced = useDebouncedValue(searchText.trim(), SEARCH_DEBOUNCE_MS);
  // The search can also change from the link (Back, a pasted link): the box follows it.
  useEffect(() => setSearchText((t) => (t.trim() === state.search ? t : state.search)), [state.search]);
  // Spec §4: changing the search resets to page 1.
  useEffect(() => {
    setState((s) => (s.search === debounced ? s : { ...s, search: debounced, page: 1 }));
  }, [debounced, setState]);

  const dict = useQuery(dictionariesQuery()).data;
  const roleId = useCallback((name: RoleName) => dict?.Roles?.[name]?.Id ?? ROLE_IDS[name], [dict]);

  const params: PersonListParams = useMemo(() => {
    const { key, desc } = state.sort;
    const isRole = key.startsWith(ROLE_SORT_PREFIX);
    return {
      page: state.page,
      pageSize: state.pageSize,
      orderBy: isRole ? 'Role' : (key as PersonListParams['orderBy']),
      desc,
      searchValue: state.search,
      sortRoleId: isRole ? key.slice(ROLE_SORT_PREFIX.length) : undefined,
    };
  }, [state]);
  const list = useQuery(personListQuery(params));

  const searchRef = useRef<HTMLInputElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);

  // roleId() reads the dictionaries: the columns change when they load.
  const columns = useMemo(() => personColumns(roleId), [roleId]);

  const data = list.data;
  return (
    <Flex direction="column" gap="3" p="4" style={{ height: '100%', minHeight: 0, boxSizing: 'border-box' }}>
      <Flex align="center" justify="between" gap="3" wrap="wrap">
        <Heading as="h1" size="5">
          {MSG.personsTitle}
        </Heading>
        {can(P.PersonCreate) && <Button onClick={() => openRoute(getHref('personAdd'))}>{MSG.personsAddUser}</Button>}
      </Flex>
      <div role="search" style={{ maxWidth: '28rem' }}>
        <label htmlFor={`${tab.tabId}-persons-search`} className="lw-sr-only">
          Search users
        </label>
        <input
          id={`${tab.tabId}-persons-search`}
          ref={searchRef}
          type="search"
          className="lw-input"
          style={{ width: '100%' }}
          placeholder={MSG.personSearchPlaceholder}
          maxLength={MAX_SEARCH_LENGTH}
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
          onKeyDown={(e) => {
            // Escape (keeping the text) or ArrowDown leaves the box for the list, so j/k/Enter work at once.
            if (e.key === 'Escape' || e.key === 'ArrowDown') {
              e.preventDefault();
              gridRef.current?.focus();
            }
          }}
        />
      </div>
      <div style={{ flex: '1 1 auto', minHeight: 0, display: 'flex', flexDirection: 'column' }}>
        <DataTable<PersonListItem>
          label="Users"
          columns={columns}
          rows={data?.Items ?? []}
          getRowKey={(p) => p.Id}
          totalCount={data?.TotalCount ?? 0}
          {...pagingProps(state, setState)}
          scrollKey={scrollKey}
          {...listQueryProps(list, errorMessage)}
          // With the edit permission a row opens the edit page; without it the same route shows the read view (profile dialog).
          onOpen={(p, { beside }) => openRoute(getHref('personEdit', { userId: p.Id }), beside ? { beside: true } : undefined)}
          rowHref={(p) => getHref('personEdit', { userId: p.Id })}
          filterRef={searchRef}
          gridRef={gridRef}
          keyboardActive={tab.active}
          minWidth="1040px"
        />
      </div>
    </Flex>
  );
}
