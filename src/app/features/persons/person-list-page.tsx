// User Management: the person list (spec document 1 §2 "Person list page", §4 list sorting).
import { useCallback, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@radix-ui/themes';
import type { SortState } from '../../ui/data-table/types';
import { ListPageFrame, ListTable, toListFromSearch, useListPage, useLiveFilter } from '../../workspace/list-page';
import { useTab } from '../../workspace/tab-context';
import { openRoute } from '../../workspace/actions';
import { useCan } from '../../state/session';
import { getHref } from '../../paths';
import { MSG } from '../../../shared/messages';
import { DEFAULT_PAGE_SIZE } from '../../../shared/codes';
import { MAX_SEARCH_LENGTH } from '../../../shared/schemas/common';
import { P, ROLE_IDS, type RoleName } from '../../../shared/permissions';
import { dictionariesQuery } from '../../api/reference';
import type { PersonListItem } from '../../../shared/schemas/persons';
import { personListQuery, type PersonListParams } from './api';

import { personColumns, ROLE_SORT_PREFIX } from './person-columns';
export { ROLE_COLUMNS } from './person-columns';
export const SEARCH_DEBOUNCE_MS = 300;

type ListState = { page: number; pageSize: number; sort: SortState; search: string };
const INITIAL: ListState = { page: 1, pageSize: DEFAULT_PAGE_SIZE, sort: { key: 'UserName', desc: false }, search: '' };

export { formatLastLogin } from './person-columns';

function toParams(s: ListState): PersonListParams {
  const { key, desc } = s.sort;
  const isRole = key.startsWith(ROLE_SORT_PREFIX);
  return {
    page: s.page,
    pageSize: s.pageSize,
    orderBy: isRole ? 'Role' : (key as PersonListParams['orderBy']),
    desc,
    searchValue: s.search,
    sortRoleId: isRole ? key.slice(ROLE_SORT_PREFIX.length) : undefined,
  };
}

export function PersonListPage() {
  const tab = useTab();
  const can = useCan();
  const list = useListPage({
    title: MSG.personsTitle,
    initial: INITIAL,
    request: toParams,
    query: personListQuery,
    rows: (d) => d.Items,
    count: (d) => d.TotalCount,
    edgeId: (p) => p.Id,
  });
  const { setState } = list;
  // The box is searched as typed (debounced); spec §4: a new search starts at page 1.
  const [searchText, setSearchText] = useLiveFilter(list.state.search, (text) => setState((s) => ({ ...s, search: text.trim(), page: 1 })), {
    same: (text, search) => text.trim() === search,
    delayMs: SEARCH_DEBOUNCE_MS,
  });

  const dict = useQuery(dictionariesQuery()).data;
  const roleId = useCallback((name: RoleName) => dict?.Roles?.[name]?.Id ?? ROLE_IDS[name], [dict]);
  // roleId() reads the dictionaries: the columns change when they load.
  const columns = useMemo(() => personColumns(roleId), [roleId]);

  return (
    <ListPageFrame
      title={MSG.personsTitle}
      actions={can(P.PersonCreate) && <Button onClick={() => openRoute(getHref('personAdd'))}>{MSG.personsAddUser}</Button>}
    >
      <div role="search" style={{ maxWidth: '28rem' }}>
        <label htmlFor={`${tab.tabId}-persons-search`} className="lw-sr-only">
          Search users
        </label>
        <input
          id={`${tab.tabId}-persons-search`}
          ref={list.searchRef}
          type="search"
          className="lw-input"
          style={{ width: '100%' }}
          placeholder={MSG.personSearchPlaceholder}
          maxLength={MAX_SEARCH_LENGTH}
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
          onKeyDown={toListFromSearch(list)}
        />
      </div>
      <ListTable<PersonListItem>
        list={list}
        label="Users"
        columns={columns}
        getRowKey={(p) => p.Id}
        // With the edit permission a row opens the edit page; without it the same route shows the read view (profile dialog).
        onOpen={(p, { beside }) => openRoute(getHref('personEdit', { userId: p.Id }), beside ? { beside: true } : undefined)}
        rowHref={(p) => getHref('personEdit', { userId: p.Id })}
        minWidth="1040px"
      />
    </ListPageFrame>
  );
}
