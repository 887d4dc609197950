// Who may follow a record live (an alarm report, customer, person or device open in a tab): the
// same rule as the REST read of that record. Each module gives the hub its record's reader (the
// read route's permission and the same scoped look-up the read route runs: tenant scope, who may
// see whom), registered in createServices; the hub asks it when a connection opens a record and
// again for every change it delivers, so a record that moved to another tenant since stops
// reaching the connections that may no longer read it.
import type { DB } from '../db/index.js';
import type { AuthUser } from '../http/types.js';
import type { Permission } from '../../shared/permissions.js';
import { tenantMayUse, tenantScope, type TenantScope } from '../auth/tenant-scope.js';
import { isValidId, normaliseId } from '../../shared/codes.js';
import { RECORD_KINDS, type RecordChange, type RecordKind } from '../../shared/schemas/record-live.js';
import type { AlarmNoteDto } from '../../shared/schemas/alarm-reports.js';

export type Reader = Pick<AuthUser, 'id' | 'tenantId' | 'permissions'>;

/** A record kind's read rule: the read route's permission and its scoped look-up (true: the caller would be answered the record). */
export type RecordReader = { access: Permission; mayRead(db: DB, user: Reader, id: string): Promise<boolean> };
export type RecordReaders = Partial<Record<RecordKind, RecordReader>>;
/** The read rule of a record the read route finds within the caller's tenant scope: `access`, and `find` finds it. */
export const scopedReader = (access: Permission, find: (db: DB, scope: TenantScope, id: string) => Promise<unknown>): RecordReader => ({
  access,
  mayRead: async (db, user, id) => !!(await find(db, tenantScope(user), id)),
});

/** One committed change of a record, as a write route announces it. */
export type RecordChangeInput = { kind: RecordKind; id: string; what: RecordChange; note?: AlarmNoteDto };

export const isRecordKind = (k: unknown): k is RecordKind => typeof k === 'string' && (RECORD_KINDS as readonly string[]).includes(k);

/** The record's key in the hub (kind and normalised id), or undefined for a kind or id that cannot name a record. */
export function recordKey(kind: unknown, id: unknown): string | undefined {
  if (!isRecordKind(kind) || !isValidId(id)) return undefined;
  return `${kind}:${normaliseId(id)}`;
}

/** Whether the user may read the record by the REST read's rules: the permission, the tenant guard, the scoped look-up. */
export async function mayReadRecord(db: DB, readers: RecordReaders, user: Reader, kind: RecordKind, id: string): Promise<boolean> {
  const r = readers[kind];
  if (!r || !user.permissions.includes(r.access) || !tenantMayUse(user, r.access)) return false;
  return r.mayRead(db, user, id);
}

/** A person's display name ("First Last"), else their e-mail, else their id. */
export async function displayName(db: DB, user: Pick<AuthUser, 'id'> & { email?: string }): Promise<string> {
  const p = await db.selectFrom('persons').select(['firstName', 'lastName']).where('id', '=', user.id).executeTakeFirst();
  const name = p ? `${p.firstName} ${p.lastName}`.trim() : '';
  return name || user.email || user.id;
}

/** The audit entity each record kind's changes are written under. */
const AUDIT_ENTITY: Record<RecordKind, string> = { 'alarm-report': 'alarmReport', customer: 'customer', person: 'person', device: 'device' };
/** Audit entries of a record that note an attempt or a read, not a change of what its tab shows. */
const NOT_CHANGES = ['login-failed', 'sso-login-failed', 'password-reset-requested', 'alarmReport.callDownload', 'alarmReport.export'];

/**
 * The newest change of a record by someone other than the user committed after `since` (a time the
 * hub gave the tab: the tab's view was current then), from the record's History: what a tab whose
 * connection was down meanwhile missed. Undefined when there is none.
 */
export async function changedSince(
  db: DB,
  user: Pick<AuthUser, 'id'>,
  kind: RecordKind,
  id: string,
  since: string,
): Promise<{ By: string; ByUserId: string; At: string } | undefined> {
  const row = await db
    .selectFrom('auditLog')
    .select(['actorId', 'at'])
    .where('entity', '=', AUDIT_ENTITY[kind])
    .where('entityId', '=', id)
    .where('at', '>', since)
    .where('actorId', 'is not', null)
    .where('actorId', '<>', user.id)
    .where('action', 'not in', NOT_CHANGES)
    .orderBy('at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row?.actorId) return undefined;
  return { By: await displayName(db, { id: row.actorId }), ByUserId: row.actorId, At: row.at };
}
