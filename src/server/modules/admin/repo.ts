// Database functions of provider administration: feature toggles, the global 2FA mode, the
// companies (e-mail domains) that require single sign-on, and the audit trail read side.
import { sql } from 'kysely';
import type { DB } from '../../db/index.js';
import { likeEscape } from '../../platform/util.js';
import { getHref } from '../../../shared/routes.js';
import {
  FEATURES,
  TWO_FACTOR_MODE,
  type AdminSettingsDto,
  type AuditEntryDto,
  type AuditListDto,
  type AuditListItemDto,
  type FeatureName,
} from '../../../shared/schemas/admin.js';

export async function readAdminSettings(db: DB): Promise<AdminSettingsDto> {
  const [features, mode, domains] = await Promise.all([
    db.selectFrom('features').select(['name', 'isEnabled']).execute(),
    db.selectFrom('globalSettings').select('value').where('key', '=', TWO_FACTOR_MODE.key).executeTakeFirst(),
    db
      .selectFrom('ssoDomains')
      .leftJoin('customers', 'customers.id', 'ssoDomains.customerId')
      .select(['ssoDomains.domain', 'ssoDomains.customerId', 'customers.name as customerName'])
      .where('ssoDomains.enforced', '=', 1)
      .orderBy('ssoDomains.domain')
      .execute(),
  ]);
  const on = new Map(features.map((f) => [f.name, f.isEnabled === 1]));
  return {
    Features: (Object.keys(FEATURES) as FeatureName[]).map((name) => ({ FeatureName: name, IsEnabled: on.get(name) ?? false, Description: FEATURES[name] })),
    TwoFactorAuthenticationMode: Number(mode?.value ?? 0) === TWO_FACTOR_MODE.enforced ? TWO_FACTOR_MODE.enforced : TWO_FACTOR_MODE.optional,
    SsoDomains: domains.map((d) => ({ Domain: d.domain, CustomerId: d.customerId ?? null, CustomerName: d.customerName ?? null })),
  };
}

/** Sets a feature (inserting its row when absent); the previous value, false when there was none. */
export async function setFeature(db: DB, name: string, isEnabled: boolean): Promise<boolean> {
  const row = await db.selectFrom('features').select('isEnabled').where('name', '=', name).executeTakeFirst();
  if (row)
    await db
      .updateTable('features')
      .set({ isEnabled: isEnabled ? 1 : 0 })
      .where('name', '=', name)
      .execute();
  else
    await db
      .insertInto('features')
      .values({ name, isEnabled: isEnabled ? 1 : 0 })
      .execute();
  return row?.isEnabled === 1;
}

/** Sets a global setting (inserting its row when absent); the previous value or null. */
export async function setGlobalSetting(db: DB, key: string, value: string): Promise<string | null> {
  const row = await db.selectFrom('globalSettings').select('value').where('key', '=', key).executeTakeFirst();
  if (row) await db.updateTable('globalSettings').set({ value }).where('key', '=', key).execute();
  else await db.insertInto('globalSettings').values({ key, value }).execute();
  return row?.value ?? null;
}

export const findSsoDomain = (db: DB, domain: string) =>
  db.selectFrom('ssoDomains').select(['domain', 'enforced', 'customerId']).where('domain', '=', domain).executeTakeFirst();

/** Adds or re-enforces a domain; false when it was already enforced. */
export async function addSsoDomain(db: DB, domain: string, customerId: string | null): Promise<boolean> {
  const row = await findSsoDomain(db, domain);
  if (row?.enforced === 1) return false;
  if (row) await db.updateTable('ssoDomains').set({ enforced: 1, customerId }).where('domain', '=', domain).execute();
  else await db.insertInto('ssoDomains').values({ domain, enforced: 1, customerId }).execute();
  return true;
}

export async function removeSsoDomain(db: DB, domain: string): Promise<boolean> {
  const r = await db.deleteFrom('ssoDomains').where('domain', '=', domain).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export type AuditFilter = { actor: string; entity: string; action: string; entityId: string; from: string | null; to: string | null };

/**
 * One page of the audit trail, newest first. `actor` matches the actor's e-mail or name (part of
 * it) or id; `action` matches part of the action; `entity` and `entityId` are exact.
 */
export async function listAudit(db: DB, f: AuditFilter, pageNumber: number, pageSize: number): Promise<AuditListDto> {
  const base = filteredAudit(db, f);
  const [rows, total] = await Promise.all([
    base
      .select(['auditLog.id', 'auditLog.at', 'auditLog.actorId', 'auditLog.action', 'auditLog.entity', 'auditLog.entityId', 'auditLog.details'])
      .select(['persons.firstName', 'persons.lastName', 'persons.email'])
      .orderBy('auditLog.at', 'desc')
      .orderBy('auditLog.id', 'desc')
      .limit(pageSize)
      .offset((pageNumber - 1) * pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const items = rows.map(auditItem);
  return { TotalCount: Number(total.n), Items: await withRecords(db, items) };
}

type RecordRef = { label: string; href: string | null };
type RecordLookup = (db: DB, ids: string[]) => Promise<[string, RecordRef][]>;

/**
 * What an entry's record is, per entity kind: one query for all the ids of a kind on a page. The
 * links are the routes the palette opens for the same records (an alarm report by its alarm id).
 */
const RECORD_LOOKUPS: Record<string, RecordLookup> = {
  device: async (db, ids) =>
    (await db.selectFrom('devices').select(['id', 'serialNumber']).where('id', 'in', ids).execute()).map((r) => [
      r.id,
      { label: r.serialNumber, href: getHref('device', { deviceId: r.id }) },
    ]),
  customer: async (db, ids) =>
    (await db.selectFrom('customers').select(['id', 'name']).where('id', 'in', ids).execute()).map((r) => [
      r.id,
      { label: r.name, href: getHref('customerAccount', { customerId: r.id }) },
    ]),
  person: async (db, ids) =>
    (await db.selectFrom('persons').select(['id', 'firstName', 'lastName', 'email']).where('id', 'in', ids).execute()).map((r) => [
      r.id,
      { label: `${r.firstName} ${r.lastName}`.trim() || r.email, href: getHref('personEdit', { userId: r.id }) },
    ]),
  alarmReport: async (db, ids) =>
    (await db.selectFrom('alarmReports').select(['id', 'alarmId']).where('id', 'in', ids).execute()).map((r) => [
      r.id,
      { label: r.alarmId, href: getHref('alarmReport', { alarmId: r.alarmId }) },
    ]),
  // Schedules are listed on one page, not opened one by one.
  schedule: async (db, ids) =>
    (await db.selectFrom('reportSchedules').select(['id', 'name']).where('id', 'in', ids).execute()).map((r) => [r.id, { label: r.name, href: null }]),
};

/** A page of entries with what each record is: at most one look-up per entity kind on the page, never one per entry. */
async function withRecords(db: DB, items: AuditEntryDto[]): Promise<AuditListItemDto[]> {
  const idsByKind = new Map<string, Set<string>>();
  for (const e of items) {
    if (!e.EntityId || !RECORD_LOOKUPS[e.Entity]) continue;
    const ids = idsByKind.get(e.Entity) ?? new Set<string>();
    ids.add(e.EntityId);
    idsByKind.set(e.Entity, ids);
  }
  const found = new Map(await Promise.all([...idsByKind].map(async ([kind, ids]) => [kind, new Map(await RECORD_LOOKUPS[kind]!(db, [...ids]))] as const)));
  return items.map((e) => {
    const ref = e.EntityId ? found.get(e.Entity)?.get(e.EntityId) : undefined;
    return { ...e, RecordLabel: ref?.label ?? null, RecordHref: ref?.href ?? null };
  });
}

/** The audit entries the filter matches (with their actor joined), unordered. */
function filteredAudit(db: DB, f: AuditFilter) {
  let base = db.selectFrom('auditLog').leftJoin('persons', 'persons.id', 'auditLog.actorId');
  if (f.entity) base = base.where('auditLog.entity', '=', f.entity);
  if (f.entityId) base = base.where('auditLog.entityId', '=', f.entityId);
  if (f.action) base = base.where(sql<boolean>`lower(${sql.ref('auditLog.action')}) like ${`%${likeEscape(f.action.toLowerCase())}%`} escape '\\'`);
  if (f.actor) {
    const like = `%${likeEscape(f.actor.toLowerCase())}%`;
    base = base.where((eb) =>
      eb.or([
        eb('auditLog.actorId', '=', f.actor),
        eb(sql<string>`lower(${sql.ref('persons.email')})`, 'like', sql<string>`${like} escape '\\'`),
        eb(sql<string>`lower(${sql.ref('persons.firstName')} || ' ' || ${sql.ref('persons.lastName')})`, 'like', sql<string>`${like} escape '\\'`),
      ]),
    );
  }
  if (f.from) base = base.where('auditLog.at', '>=', new Date(f.from).toISOString());
  if (f.to) base = base.where('auditLog.at', '<', new Date(f.to).toISOString());
  return base;
}

type AuditRow = {
  id: number | string;
  at: string;
  actorId: string | null;
  action: string;
  entity: string;
  entityId: string | null;
  details: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
};
const auditItem = (r: AuditRow): AuditEntryDto => ({
  Id: Number(r.id),
  At: r.at,
  ActorId: r.actorId,
  ActorName: r.email ? `${r.firstName ?? ''} ${r.lastName ?? ''}`.trim() || r.email : null,
  Action: r.action,
  Entity: r.entity,
  EntityId: r.entityId,
  Details: parseDetails(r.details),
});

/** How many audit entries the filter matches. */
export async function countAudit(db: DB, f: AuditFilter): Promise<number> {
  return Number(
    (
      await filteredAudit(db, f)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
}

/** The next page of matching entries after `after` (newest first, keyset on (at, id), never OFFSET). */
export async function auditExportPage(db: DB, f: AuditFilter, after: { at: string; id: number } | null, size: number): Promise<AuditEntryDto[]> {
  let q = filteredAudit(db, f);
  if (after) q = q.where((eb) => eb.or([eb('auditLog.at', '<', after.at), eb.and([eb('auditLog.at', '=', after.at), eb('auditLog.id', '<', after.id)])]));
  const rows = await q
    .select(['auditLog.id', 'auditLog.at', 'auditLog.actorId', 'auditLog.action', 'auditLog.entity', 'auditLog.entityId', 'auditLog.details'])
    .select(['persons.firstName', 'persons.lastName', 'persons.email'])
    .orderBy('auditLog.at', 'desc')
    .orderBy('auditLog.id', 'desc')
    .limit(size)
    .execute();
  return rows.map(auditItem);
}

function parseDetails(s: string): unknown {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return s;
  }
}
