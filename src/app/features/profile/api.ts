// Own-profile calls (spec document 1 §7): GET persons/get-own-profile, PUT
// api/v1/person/basic-info-update. The country list comes from the shared dictionaries query
// (src/app/api/reference.ts).
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';
import type { EtagResponse } from '../../../shared/schemas/common';
import type { OwnProfile, PhoneEntry } from '../../../shared/schemas/persons';

// The answer type is the contract's (src/shared/schemas/persons.ts).
export type { OwnProfile };

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

export type OwnProfileUpdate = { firstName: string; lastName: string; phoneNumbers: PhoneEntry[] };

/** PUT /api/v1/person/basic-info-update — body { person, etag } → { Etag }; a stale etag answers 409. */
export const updateOwnProfile = (person: OwnProfileUpdate, etag: string) =>
  http<EtagResponse>('/api/v1/person/basic-info-update', { method: 'PUT', body: { person, etag } });

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
