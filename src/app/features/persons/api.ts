// Person calls (spec document 1 §7): one queryOptions factory per endpoint, hierarchical keys
// (['persons', 'list', params], ['persons', 'detail', id]) so invalidation can be broad or narrow,
// and the in-place cache updates the spec asks for after an identity update (new etag).
import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';
import { isValidId, normaliseId } from '../../../shared/codes';
import { ROLE_IDS, type RoleName } from '../../../shared/permissions';

export type RoleRef = { Id: string; Name: RoleName | string; IsDefault: boolean; Order: number };

export type PersonListItem = {
  Id: string;
  FirstName: string;
  LastName: string;
  Email: string;
  Roles: RoleRef[];
  IsLocked: boolean;
  LastLoginDate: string | null;
  PersonStatus: number;
  Etag: string;
};
export type PersonList = { Items: PersonListItem[]; TotalCount: number };

export type Person = {
  Id: string;
  FirstName: string;
  LastName: string;
  Contact: { EmailAddress: string };
  Roles: RoleRef[];
  IsLocked: boolean;
  PersonStatus: number;
};
export type PersonDetail = { Person: Person; Etag: string };

export type Dictionaries = { Roles: Partial<Record<RoleName, RoleRef>>; Countries: unknown[] };

export type PersonOrderBy = 'UserName' | 'Email' | 'LastLoginDate' | 'Role';
export type PersonListParams = {
  page: number;
  pageSize: number;
  orderBy: PersonOrderBy;
  desc: boolean;
  searchValue: string;
  /** With orderBy 'Role': holders of this role first (last when desc). */
  sortRoleId?: string;
};

export const personKeys = {
  all: ['persons'] as const,
  lists: () => ['persons', 'list'] as const,
  list: (params: PersonListParams) => ['persons', 'list', params] as const,
  details: () => ['persons', 'detail'] as const,
  detail: (id: string) => ['persons', 'detail', id] as const,
};

/** GET /ps-admin/persons/get-list — previous page stays on screen while the next loads. */
export const personListQuery = (params: PersonListParams) =>
  queryOptions({
    queryKey: personKeys.list(params),
    queryFn: ({ signal }) =>
      http<PersonList>('/ps-admin/persons/get-list', {
        signal,
        query: {
          page: params.page,
          pageSize: params.pageSize,
          orderBy: params.orderBy,
          desc: params.desc,
          searchValue: params.searchValue || undefined,
          sortRoleId: params.sortRoleId,
        },
      }),
    placeholderData: keepPreviousData,
    meta: { silent: true }, // the list shows its own error state
  });

/** GET /persons/get-by-id?Id= — only runs with a valid id (spec §5). */
export const personDetailQuery = (id: string) =>
  queryOptions({
    queryKey: personKeys.detail(isValidId(id) ? normaliseId(id) : id),
    queryFn: ({ signal }) => http<PersonDetail>('/persons/get-by-id', { signal, query: { Id: id } }),
    enabled: isValidId(id),
    meta: { silent: true }, // the form shows 'User not found.' itself
  });

/** GET /ps-admin/dictionaries/get-all — roles (with their ids) and countries. */
export const dictionariesQuery = () =>
  queryOptions({
    queryKey: ['dictionaries', 'all'] as const,
    queryFn: ({ signal }) => http<Dictionaries>('/ps-admin/dictionaries/get-all', { signal }),
    staleTime: Infinity,
  });

export type PersonFields = { firstName: string; lastName: string; emailAddress: string; roleIds: string[] };

/** POST /api/v1/person */
export const createPerson = (person: PersonFields) =>
  http<{ Id: string; Etag: string }>('/api/v1/person', { method: 'POST', body: { person } });

/** PUT /api/v1/person/{id}/identity-update — a stale etag answers 409. */
export const updatePersonIdentity = (id: string, person: PersonFields & { etag: string }) =>
  http<{ Etag: string }>(`/api/v1/person/${encodeURIComponent(id)}/identity-update`, {
    method: 'PUT',
    body: { personId: id, person },
  });

/** PUT /api/v1/{id}/unlock */
export const unlockPerson = (id: string) => http<{ Etag: string }>(`/api/v1/${encodeURIComponent(id)}/unlock`, { method: 'PUT' });

/** Role objects for ids, named from the dictionaries (or the fixed id table while they load). */
export function rolesFromIds(ids: readonly string[], dict?: Dictionaries): RoleRef[] {
  const known = Object.values(dict?.Roles ?? {}).filter((r): r is RoleRef => !!r);
  return ids.map((id, i) => {
    const fromDict = known.find((r) => r.Id === id);
    if (fromDict) return fromDict;
    const name = (Object.keys(ROLE_IDS) as RoleName[]).find((n) => ROLE_IDS[n] === id) ?? id;
    return { Id: id, Name: name, IsDefault: false, Order: i };
  });
}

/**
 * Spec §7: after an update the cached person and its list entries change in place with the new
 * etag — no refetch, so the list keeps its page and scroll position.
 */
export function patchPersonInCache(
  qc: QueryClient,
  id: string,
  patch: { Etag: string; FirstName?: string; LastName?: string; Roles?: RoleRef[]; IsLocked?: boolean },
) {
  const key = normaliseId(id);
  const { Etag, ...fields } = patch;
  qc.setQueryData<PersonDetail>(personKeys.detail(key), (old) =>
    old ? { ...old, Etag, Person: { ...old.Person, ...fields } } : old,
  );
  qc.setQueriesData<PersonList>({ queryKey: personKeys.lists() }, (old) =>
    old
      ? { ...old, Items: old.Items.map((p) => (normaliseId(p.Id) === key ? { ...p, ...fields, Etag } : p)) }
      : old,
  );
}
