// Optimistic concurrency under real concurrency: many writers holding the same etag, at once.
// Exactly one may win; every other gets 409; the stored record is exactly the winner's payload.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertPerson, signedIn, storedRoleNames, tokenFor } from '../helpers/auth.js';
import { ROLE_IDS, ASSIGNABLE_ROLES, type RoleName } from '../../src/shared/permissions.js';
import { CODE } from '../../src/shared/messages.js';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await tokenFor(t.config, ['SuperAdminRole']);
});
afterAll(async () => {
  await t.close();
});

const N = 100;
/** A distinct, non-empty role set per writer, so a mix of two writers' roles would show. */
const rolesFor = (i: number): RoleName[] => {
  const set = ASSIGNABLE_ROLES.filter((_, bit) => ((i % 31) + 1) & (1 << bit));
  return set.length ? set : ['ArcControllerRole'];
};
const storedRoles = (id: string) => storedRoleNames(t.db, id);

async function race(id: string, etag: string, round: number) {
  const responses = await Promise.all(
    Array.from({ length: N }, (_, i) =>
      t.request(`/api/v1/person/${id}/identity-update`, {
        method: 'PUT',
        token: admin,
        json: {
          personId: id,
          person: { firstName: `Writer${i}`, lastName: `Round${round}-${i}`, roleIds: rolesFor(i).map((r) => ROLE_IDS[r]), etag },
        },
      }),
    ),
  );
  const bodies = await Promise.all(responses.map((r) => r.json()));
  return responses.map((r, i) => ({ i, status: r.status, body: bodies[i] }));
}

test(`${N} concurrent identity-updates with one etag: one 200, ${N - 1} × 409, the winner's payload stored whole`, async () => {
  const id = await insertPerson(t.db, { email: 'race@staff.test', firstName: 'Race', lastName: 'Target', roles: ['ArcControllerRole'] });
  let etag = (await t.db.selectFrom('persons').select('etag').where('id', '=', id).executeTakeFirstOrThrow()).etag;

  for (const round of [1, 2]) {
    const results = await race(id, etag, round);
    const winners = results.filter((r) => r.status === 200);
    const losers = results.filter((r) => r.status === 409);
    expect(winners, `round ${round}: ${JSON.stringify(results.filter((r) => r.status !== 409 && r.status !== 200).slice(0, 3))}`).toHaveLength(1);
    expect(losers).toHaveLength(N - 1);
    for (const l of losers) expect(l.body.Content.Code).toBe(CODE.conflict);

    const w = winners[0]!; // exactly one: asserted above
    const row = await t.db.selectFrom('persons').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.firstName).toBe(`Writer${w.i}`);
    expect(row.lastName).toBe(`Round${round}-${w.i}`);
    expect(row.etag).toBe(w.body.Etag);
    expect(row.etag).not.toBe(etag);
    expect(await storedRoles(id)).toEqual([...rolesFor(w.i)].sort());
    const audits = await t.db.selectFrom('auditLog').select('details').where('entityId', '=', id).where('action', '=', 'person.identity-update').execute();
    expect(audits).toHaveLength(round);
    etag = row.etag;
  }
});

test('concurrent own-profile updates with one etag: exactly one wins', async () => {
  const me = await signedIn(t.db, t.config, ['ArcManagerRole']);
  const etag = (await t.db.selectFrom('persons').select('etag').where('id', '=', me.id).executeTakeFirstOrThrow()).etag;
  const n = 50;
  const responses = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      t.request('/api/v1/person/basic-info-update', {
        method: 'PUT',
        token: me.token,
        json: { etag, person: { firstName: `Me${i}`, lastName: 'Racer', phoneNumbers: [] } },
      }),
    ),
  );
  const statuses = responses.map((r) => r.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(1);
  expect(statuses.filter((s) => s === 409)).toHaveLength(n - 1);
  const winner = statuses.indexOf(200);
  const row = await t.db.selectFrom('persons').selectAll().where('id', '=', me.id).executeTakeFirstOrThrow();
  expect(row.firstName).toBe(`Me${winner}`);
  expect(row.etag).toBe((await responses[winner]!.json()).Etag); // the one 200, asserted above
});
