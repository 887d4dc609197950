// Reference data: the person dictionaries (roles, countries), feature toggles, global settings
// and the lookup lists of the stock service and the alarm reports. Everything is read from the
// tables src/server/seed/reference.ts fills, so an operator can change a list without a release.
import { deps, type Api } from '../../http.js';
import type { DB } from '../../db/index.js';
import { P, ROLE, type RoleName } from '../../../shared/permissions.js';
import { DEVICE_CAPABILITIES } from '../../../shared/codes.js';
import { PROVIDER_TENANT_ID } from '../../../shared/tenants.js';
import {
  featuresQuery, type ControllerDto, type CountryDto, type DeviceTypeDto, type DictionariesDto, type FeaturesDto,
  type GlobalSettingsDto, type LookupDto, type RoleDto,
} from '../../../shared/schemas/reference.js';

/**
 * Spec doc 1 §9: "Lookups are sorted by name with uppercase first" — a plain code-unit
 * comparison ('SpotX' < 'SureCam' < 'badge' < 'eSIM'), ties broken by value.
 * Lists whose code order carries meaning keep it instead: time ranges (last-config filters, date
 * range options), the tier ladder (Bronze → Platinum) and the verification types and categories
 * (the spec's tables list them by code, and categories group by their type's hundreds digit).
 */
const ORDER_BY_NAME = new Set(['deviceTypes', 'simTypes', 'assetStatuses', 'customerStatuses', 'alarmTypes']);
const byNameUpperFirst = (a: LookupDto, b: LookupDto) =>
  a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : a.Value - b.Value;

export async function readLookup(db: DB, kind: string): Promise<LookupDto[]> {
  const rows = await db.selectFrom('lookups').select(['value', 'name', 'order']).where('kind', '=', kind)
    .orderBy('order').orderBy('value').execute();
  const list = rows.map((r) => ({ Value: r.value, Name: r.name }));
  return ORDER_BY_NAME.has(kind) ? list.sort(byNameUpperFirst) : list;
}

/** Spec doc 1 §9: GB first, then the rest alphabetically by name. */
export function sortCountries(list: CountryDto[]): CountryDto[] {
  const collator = new Intl.Collator('en-GB', { sensitivity: 'base' });
  return [...list].sort((a, b) => (a.Code === 'GB' ? -1 : b.Code === 'GB' ? 1 : collator.compare(a.Name, b.Name) || a.Code.localeCompare(b.Code)));
}

export function referenceRoutes(api: Api) {
  api.get('/ps-admin/dictionaries/get-all', { access: 'signed-in' }, async (c) => {
    const { db } = deps(c);
    const [roles, countries] = await Promise.all([
      db.selectFrom('roles').selectAll().orderBy('order').execute(),
      db.selectFrom('countries').selectAll().execute(),
    ]);
    const Roles = {} as Record<RoleName, RoleDto>;
    for (const r of roles) Roles[r.name as RoleName] = { Id: r.id, Name: r.name as RoleName, IsDefault: r.isDefault === 1, Order: r.order };
    const body: DictionariesDto = {
      Roles,
      Countries: sortCountries(countries.map((x) => ({ Id: x.id, Code: x.code, Name: x.name, PhoneNumberCode: x.phoneNumberCode }))),
    };
    return c.json(body);
  });

  const features = async (db: DB, names?: string[]): Promise<FeaturesDto> => {
    let q = db.selectFrom('features').select(['name', 'isEnabled']).orderBy('name');
    if (names?.length) q = q.where('name', 'in', names);
    const rows = await q.execute();
    return { Features: rows.map((r) => ({ FeatureName: r.name, IsEnabled: r.isEnabled === 1 })) };
  };
  api.get('/features/all', { access: 'public' }, async (c) => c.json(await features(deps(c).db)));
  api.get('/features', { access: 'public', query: featuresQuery, sample: { query: { name: 'SingleSignOn' } } }, async (c, { query }) =>
    c.json(await features(deps(c).db, query.name)));

  api.get('/customers/get-global-settings', { access: 'signed-in' }, async (c) => {
    const row = await deps(c).db.selectFrom('globalSettings').select('value')
      .where('key', '=', 'TwoFactorAuthentication.Mode.Value').executeTakeFirst();
    const n = Number(row?.value ?? 0);
    const body: GlobalSettingsDto = { TwoFactorAuthentication: { Mode: { Value: Number.isFinite(n) ? n : 0 } } };
    return c.json(body);
  });

  // Stock-service lookups.
  const lookup = (path: string, kind: string, access: 'signed-in' | typeof P.AlarmReportListView = 'signed-in') =>
    api.get(path, { access }, async (c) => c.json(await readLookup(deps(c).db, kind)));

  api.get('/api/v1/device/get-types', { access: 'signed-in' }, async (c) => {
    const list = await readLookup(deps(c).db, 'deviceTypes');
    const body: DeviceTypeDto[] = list.map((l) => ({ ...l, Capabilities: DEVICE_CAPABILITIES[l.Value] ?? 0 }));
    return c.json(body);
  });
  lookup('/api/v1/device/get-last-config-filters', 'lastConfigFilters');
  lookup('/api/v1/device/get-sim-types', 'simTypes');
  lookup('/api/v1/device/get-asset-statuses', 'assetStatuses');
  lookup('/api/v1/customer/get-tier-types', 'tierTypes');
  lookup('/api/v1/customer/get-statuses', 'customerStatuses');

  // Alarm-report lookups (the path spelling 'rage' is the spec's).
  lookup('/alarm-report/get-date-rage-options', 'dateRangeOptions', P.AlarmReportListView);
  lookup('/alarm-report/get-alarm-types', 'alarmTypes', P.AlarmReportListView);
  lookup('/alarm-report/get-verification-types', 'verificationTypes', P.AlarmReportListView);
  lookup('/alarm-report/get-verification-categories', 'verificationCategories', P.AlarmReportListView);

  /** Provider-tenant persons holding the ARC controller role, by name. */
  api.get('/alarm-report/get-controllers', { access: P.AlarmReportListView }, async (c) => {
    const { db } = deps(c);
    const rows = await db.selectFrom('persons')
      .innerJoin('personRoles', 'personRoles.personId', 'persons.id')
      .innerJoin('roles', 'roles.id', 'personRoles.roleId')
      .select(['persons.id', 'persons.firstName', 'persons.lastName'])
      .where('roles.name', '=', ROLE.ArcController)
      .where('persons.tenantId', '=', PROVIDER_TENANT_ID)
      .execute();
    // sorted here, not in SQL, so both dialects give the same (en-GB) order
    const collator = new Intl.Collator('en-GB', { sensitivity: 'base' });
    const body: ControllerDto[] = rows
      .map((r) => ({ Id: r.id, FullName: `${r.firstName} ${r.lastName}` }))
      .sort((a, b) => collator.compare(a.FullName, b.FullName) || (a.Id < b.Id ? -1 : 1));
    return c.json(body);
  });
}
