// Database functions of the reference data: roles, countries, feature toggles, global settings,
// the lookup lists and the ARC controllers. Everything is read from the tables
// src/server/seed/reference.ts fills, so an operator can change a list without a release.
import type { DB } from '../../db/index.js';
import { ROLE, type RoleName } from '../../../shared/permissions.js';
import { PROVIDER_TENANT_ID } from '../../../shared/tenants.js';
import type { ControllerDto, CountryDto, FeaturesDto, LookupDto, RoleDto } from '../../../shared/schemas/reference.js';

/**
 * Spec doc 1 §9: "Lookups are sorted by name with uppercase first" — a plain code-unit
 * comparison ('SpotX' < 'SureCam' < 'badge' < 'eSIM'), ties broken by value.
 * Lists whose code order carries meaning keep it instead: time ranges (last-config filters, date
 * range options), the tier ladder (Bronze → Platinum) and the verification types and categories
 * (the spec's tables list them by code, and categories group by their type's hundreds digit).
 */
const ORDER_BY_NAME = new Set(['deviceTypes', 'simTypes', 'assetStatuses', 'customerStatuses', 'alarmTypes']);
const byNameUpperFirst = (a: LookupDto, b: LookupDto) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : a.Value - b.Value);

export async function readLookup(db: DB, kind: string): Promise<LookupDto[]> {
  const rows = await db.selectFrom('lookups').select(['value', 'name', 'order']).where('kind', '=', kind).orderBy('order').orderBy('value').execute();
  const list = rows.map((r) => ({ Value: r.value, Name: r.name }));
  return ORDER_BY_NAME.has(kind) ? list.sort(byNameUpperFirst) : list;
}

/** Spec doc 1 §9: GB first, then the rest alphabetically by name. */
export function sortCountries(list: CountryDto[]): CountryDto[] {
  const collator = new Intl.Collator('en-GB', { sensitivity: 'base' });
  return [...list].sort((a, b) => (a.Code === 'GB' ? -1 : b.Code === 'GB' ? 1 : collator.compare(a.Name, b.Name) || a.Code.localeCompare(b.Code)));
}

/** Every role, by name, in role order. */
export async function readRoles(db: DB): Promise<Record<RoleName, RoleDto>> {
  const roles = await db.selectFrom('roles').selectAll().orderBy('order').execute();
  const Roles = {} as Record<RoleName, RoleDto>;
  for (const r of roles) Roles[r.name as RoleName] = { Id: r.id, Name: r.name as RoleName, IsDefault: r.isDefault === 1, Order: r.order };
  return Roles;
}

/** Every country, GB first then by name. */
export async function readCountries(db: DB): Promise<CountryDto[]> {
  const countries = await db.selectFrom('countries').selectAll().execute();
  return sortCountries(countries.map((x) => ({ Id: x.id, Code: x.code, Name: x.name, PhoneNumberCode: x.phoneNumberCode })));
}

/** Feature toggles by name; all of them when `names` is empty. */
export async function readFeatures(db: DB, names?: string[]): Promise<FeaturesDto> {
  let q = db.selectFrom('features').select(['name', 'isEnabled']).orderBy('name');
  if (names?.length) q = q.where('name', 'in', names);
  const rows = await q.execute();
  return { Features: rows.map((r) => ({ FeatureName: r.name, IsEnabled: r.isEnabled === 1 })) };
}

export async function readGlobalSetting(db: DB, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('globalSettings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** Provider-tenant persons holding the ARC controller role, by name. */
export async function readControllers(db: DB): Promise<ControllerDto[]> {
  const rows = await db
    .selectFrom('persons')
    .innerJoin('personRoles', 'personRoles.personId', 'persons.id')
    .innerJoin('roles', 'roles.id', 'personRoles.roleId')
    .select(['persons.id', 'persons.firstName', 'persons.lastName'])
    .where('roles.name', '=', ROLE.ArcController)
    .where('persons.tenantId', '=', PROVIDER_TENANT_ID)
    .execute();
  // sorted here, not in SQL, so both dialects give the same (en-GB) order
  const collator = new Intl.Collator('en-GB', { sensitivity: 'base' });
  return rows
    .map((r) => ({ Id: r.id, FullName: `${r.firstName} ${r.lastName}` }))
    .sort((a, b) => collator.compare(a.FullName, b.FullName) || (a.Id < b.Id ? -1 : 1));
}
