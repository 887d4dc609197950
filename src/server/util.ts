import { randomUUID } from 'node:crypto';
import type { DB } from './db/index.js';

export const newId = () => randomUUID();
export const newEtag = () => `"${randomUUID()}"`;
export const bool = (n: number | null | undefined) => n === 1;
export const int = (b: boolean | undefined | null) => (b ? 1 : 0);

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

/** Escape LIKE wildcards; use with `escape '\\'`. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (m) => '\\' + m);
