// Per-person session epoch. Access tokens carry the epoch of their person at issue time
// (claim `epoch`); every authenticated request compares it with the stored one, so a bump
// (password change or reset, role change, refresh-token reuse, logout) ends the access tokens
// issued before within seconds instead of at their expiry (up to 15 minutes). The same look-up
// refuses persons locked without an end (an administrator's lock) and inactive persons.
//
// Each node caches a person's state for config.sessionCheckMs (default 5 s): a bump on this node
// takes effect at once (the entry is dropped), on other nodes after at most that long.
//
// After the change is committed, forgetSessionState tells the listeners (the live hub), which
// end the person's open connections whose session is no longer current, on every node.
import type { DB } from '../db/index.js';
import type { Deps } from '../http/types.js';
import { setBounded } from '../platform/util.js';

type State = { epoch: number; blocked: boolean; missing: boolean; until: number };
const cache = new Map<string, State>();
const MAX_ENTRIES = 20_000;

type SessionListener = (personId: string) => void;
const listeners = new Set<SessionListener>();

/** Calls `fn` with the person's id after each committed session change on this node; returns the unsubscribe. */
export function onSessionChange(fn: SessionListener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Drops the cached state of a person; called after the change committed, it also tells the listeners. */
export function forgetSessionState(personId: string) {
  cache.delete(personId);
  for (const fn of listeners) fn(personId);
}

/** Drops the cached state of a person without telling anyone (a change heard from another node). */
export function dropSessionState(personId: string) {
  cache.delete(personId);
}

/** The stored session state of several persons, read now (no cache): absent ids are missing persons. */
export async function loadSessionStates(db: DB, personIds: readonly string[]): Promise<Map<string, { epoch: number; blocked: boolean }>> {
  const out = new Map<string, { epoch: number; blocked: boolean }>();
  for (let i = 0; i < personIds.length; i += 500) {
    const rows = await db
      .selectFrom('persons')
      .select(['id', 'sessionEpoch', 'isLocked', 'lockedUntil', 'personStatus'])
      .where('id', 'in', personIds.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(r.id, { epoch: r.sessionEpoch, blocked: isBlocked(r) });
  }
  return out;
}

const isBlocked = (row: { isLocked: number; lockedUntil: string | null; personStatus: number }) =>
  (row.isLocked === 1 && row.lockedUntil === null) || row.personStatus !== 1;

async function load(d: Deps, personId: string): Promise<State> {
  const row = await d.db
    .selectFrom('persons')
    .select(['sessionEpoch', 'isLocked', 'lockedUntil', 'personStatus'])
    .where('id', '=', personId)
    .executeTakeFirst();
  const until = Date.now() + d.config.sessionCheckMs;
  // Persons are never deleted by the product (they are made inactive); a missing one is left to
  // the route, which answers 'User not found.'
  if (!row) return { epoch: 0, blocked: false, missing: true, until };
  return { epoch: row.sessionEpoch, blocked: isBlocked(row), missing: false, until };
}

/** True when the token's epoch is the person's current one and the person may still use the product. */
export async function sessionIsCurrent(d: Deps, claims: { sub?: unknown; epoch?: unknown }): Promise<boolean> {
  const { sub, epoch } = claims;
  if (typeof sub !== 'string' || typeof epoch !== 'number' || !Number.isInteger(epoch) || epoch < 0) return false;
  let s = cache.get(sub);
  // A token newer than the cached state means the cache is behind: read again.
  if (!s || s.until <= Date.now() || (!s.missing && epoch > s.epoch)) {
    s = await load(d, sub);
    cache.delete(sub);
    setBounded(cache, sub, s, MAX_ENTRIES);
  }
  if (s.missing) return true;
  return !s.blocked && epoch === s.epoch;
}

/** Ends every access token of the person issued before now (they refresh, if their session still stands). */
export async function bumpSessionEpoch(db: DB, personId: string) {
  await db
    .updateTable('persons')
    .set((eb) => ({ sessionEpoch: eb('sessionEpoch', '+', 1) }))
    .where('id', '=', personId)
    .execute();
  dropSessionState(personId); // the caller calls forgetSessionState after its commit
}

/** Before an update replaces the person's roles: bumps the epoch when the set changes (tokens carry the permissions). */
export async function bumpSessionEpochIfRolesChange(db: DB, personId: string, roleIds: readonly string[]) {
  const rows = await db.selectFrom('personRoles').select('roleId').where('personId', '=', personId).execute();
  const before = new Set(rows.map((r) => r.roleId));
  const after = new Set(roleIds);
  if (before.size !== after.size || [...after].some((r) => !before.has(r))) await bumpSessionEpoch(db, personId);
}
