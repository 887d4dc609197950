// Own-profile calls (spec document 1 §7): GET persons/get-own-profile, PUT
// api/v1/person/basic-info-update, and the dictionaries for the country list.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';
import type { PhoneEntry } from '../../../shared/schemas/persons';
import type { Country } from './phone';
import type { OwnPerson } from './profile-form-schema';

export type OwnProfile = {
  Person: OwnPerson & { Roles?: unknown[]; IsLocked?: boolean; PersonStatus?: number };
  Etag: string;
};

/** Own root key: invalidating ['persons'] after a save must not refetch the profile just patched. */
export const profileKeys = {
  own: ['profile', 'own'] as const,
};

/** GET /persons/get-own-profile → { Person, Etag } */
export const ownProfileQuery = () =>
  queryOptions({
    queryKey: profileKeys.own,
    queryFn: ({ signal }) => http<OwnProfile>('/persons/get-own-profile', { signal }),
    meta: { silent: true }, // the page shows the error itself
  });

/** GET /ps-admin/dictionaries/get-all — the same key the person screens use (one cached copy). */
export const dictionariesQuery = () =>
  queryOptions({
    queryKey: ['dictionaries', 'all'] as const,
    queryFn: ({ signal }) => http<{ Roles?: unknown; Countries?: Country[] }>('/ps-admin/dictionaries/get-all', { signal }),
    staleTime: Infinity,
    meta: { silent: true }, // the page falls back to the built-in country list
  });

export type OwnProfileUpdate = { firstName: string; lastName: string; phoneNumbers: PhoneEntry[] };

/** PUT /api/v1/person/basic-info-update — body { person, etag } → { Etag }; a stale etag answers 409. */
export const updateOwnProfile = (person: OwnProfileUpdate, etag: string) =>
  http<{ Etag: string }>('/api/v1/person/basic-info-update', { method: 'PUT', body: { person, etag } });

/** After a save: the cached profile takes the saved values and the new etag (no refetch). */
export function patchOwnProfile(qc: QueryClient, saved: OwnProfileUpdate, etag: string) {
  qc.setQueryData<OwnProfile>(profileKeys.own, (old) =>
    old
      ? {
          ...old,
          Etag: etag,
          Person: { ...old.Person, FirstName: saved.firstName, LastName: saved.lastName, PhoneNumbers: saved.phoneNumbers },
        }
      : old,
  );
}
