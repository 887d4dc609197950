// Person calls (spec document 1 §7): one queryOptions factory per endpoint, hierarchical keys
// (['persons', 'list', params], ['persons', 'detail', id]) so invalidation can be broad or narrow,
// and the in-place cache updates the spec asks for after an identity update (new etag).
import { type QueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';
import { isValidId, normaliseId } from '../../../shared/codes';
import { ROLE_IDS, type RoleName } from '../../../shared/permissions';
import type { CreatedResponse, EtagResponse } from '../../../shared/schemas/common';
import type { PersonDetails, PersonList, PersonListItem, PersonListQuery } from '../../../shared/schemas/persons';
import type { DictionariesDto, RoleDto } from '../../../shared/schemas/reference';
import { listQuery, recordListKeys, recordQuery } from '../../api/queries';

// The answer types are the contract's (src/shared/schemas/persons.ts); re-exported for the list columns.
export type { PersonListItem };

/** The list query as the screen holds it (the contract's PersonListQuery; no role sort unless asked). */
export type PersonListParams = Omit<PersonListQuery, 'sortRoleId'> & {
  /** With orderBy 'Role': holders of this role first (last when desc). */
  sortRoleId?: string;
};

export const personKeys = {
  ...recordListKeys<PersonListParams>('persons'),
};

/** GET /ps-admin/persons/get-list — previous page stays on screen while the next loads. */
export const personListQuery = (params: PersonListParams) =>
  listQuery(personKeys.list(params), (signal) =>
    http<PersonList>('/ps-admin/persons/get-list', {
      signal,
      query: {
        page: params.page,
        pageSize: params.pageSize,
        orderBy: params.orderBy,
        desc: params.desc,
        searchValue: params.searchValue || undefined,
        sortRoleId: params.sortRoleId,
        after: params.after || undefined,
        before: params.before || undefined,
      },
    }),
  );

/** GET /persons/get-by-id?Id= — only runs with a valid id (spec §5). */
export const personDetailQuery = (id: string) =>
  // the form shows 'User not found.' itself
  recordQuery(personKeys.detail(isValidId(id) ? normaliseId(id) : id), id, (signal) =>
    http<PersonDetails>('/persons/get-by-id', { signal, query: { Id: id } }),
  );

export type PersonFields = { firstName: string; lastName: string; emailAddress: string; roleIds: string[] };

/** POST /api/v1/person */
export const createPerson = (person: PersonFields) => http<CreatedResponse>('/api/v1/person', { method: 'POST', body: { person } });

/** PUT /api/v1/person/{id}/identity-update — a stale etag answers 409. */
export const updatePersonIdentity = (id: string, person: PersonFields & { etag: string }) =>
  http<EtagResponse>(`/api/v1/person/${encodeURIComponent(id)}/identity-update`, {
    method: 'PUT',
    body: { personId: id, person },
  });

/** PUT /api/v1/{id}/unlock */
export const unlockPerson = (id: string) => http<EtagResponse>(`/api/v1/${encodeURIComponent(id)}/unlock`, { method: 'PUT' });

/** Role objects for ids, from the dictionaries (or the fixed id table while they load). */
export function rolesFromIds(ids: readonly string[], dict?: DictionariesDto): RoleDto[] {
  const known = Object.values(dict?.Roles ?? {});
  return ids.flatMap((id, i): RoleDto[] => {
    const fromDict = known.find((r) => r.Id === id);
    if (fromDict) return [fromDict];
    const name = (Object.keys(ROLE_IDS) as RoleName[]).find((n) => ROLE_IDS[n] === id);
    return name ? [{ Id: id, Name: name, IsDefault: false, Order: i }] : [];
  });
}

/**
 * Spec §7: after an update the cached person and its list entries change in place with the new
 * etag — no refetch, so the list keeps its page and scroll position.
 */
export function patchPersonInCache(
  qc: QueryClient,
  id: string,
  patch: { Etag: string } & Partial<Pick<PersonListItem, 'FirstName' | 'LastName' | 'Roles' | 'IsLocked'>>,
) {
  const key = normaliseId(id);
  const { Etag, ...fields } = patch;
  qc.setQueryData<PersonDetails>(personKeys.detail(key), (old) => (old ? { ...old, Etag, Person: { ...old.Person, ...fields } } : old));
  qc.setQueriesData<PersonList>({ queryKey: personKeys.lists() }, (old) =>
    old ? { ...old, Items: old.Items.map((p) => (normaliseId(p.Id) === key ? { ...p, ...fields, Etag } : p)) } : old,
  );
}
