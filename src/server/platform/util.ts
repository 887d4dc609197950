import { randomUUID } from 'node:crypto';
import type { DB } from '../db/types.js';

export const newId = () => randomUUID();
export const newEtag = () => `"${randomUUID()}"`;
export const bool = (n: number | null | undefined) => n === 1;
export const int = (b: boolean | undefined | null) => (b ? 1 : 0);

/**
 * Sets `key` in a map kept to at most `max` entries: past it, the entry set longest ago goes (a map
 * iterates in insertion order; delete a key before setting it again to make it the newest).
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): V {
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as K);
  return value;
}

/** Every write leaves a line in the audit log. */
export async function audit(db: DB, e: { actorId: string | null; action: string; entity: string; entityId: string | null; details?: unknown; at: Date }) {
  await db
    .insertInto('auditLog')
    .values({
      at: e.at.toISOString(),
      actorId: e.actorId,
      action: e.action,
      entity: e.entity,
      entityId: e.entityId,
      details: JSON.stringify(e.details ?? {}),
    })
    .execute();
}

/** Rows per multi-row insert of auditMany: 6 bound values a row stays far below SQLite's and PostgreSQL's limits. */
const AUDIT_CHUNK = 1000;

/**
 * One audit entry per record for a change of many (each device of a bulk change gets its own
 * History entry with its before and after values): one multi-row insert per chunk, in the
 * caller's transaction.
 */
export async function auditMany(
  db: DB,
  e: { actorId: string | null; action: string; entity: string; at: Date },
  entries: readonly { entityId: string; details: unknown }[],
) {
  const at = e.at.toISOString();
  for (let i = 0; i < entries.length; i += AUDIT_CHUNK)
    await db
      .insertInto('auditLog')
      .values(
        entries.slice(i, i + AUDIT_CHUNK).map((x) => ({
          at,
          actorId: e.actorId,
          action: e.action,
          entity: e.entity,
          entityId: x.entityId,
          details: JSON.stringify(x.details ?? {}),
        })),
      )
      .execute();
}

/** Escape LIKE wildcards; use with `escape '\\'`. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (m) => '\\' + m);
