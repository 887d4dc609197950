// Reference data: the person dictionaries (roles, countries), feature toggles, global settings
// and the lookup lists of the stock service and the alarm reports. Queries: ./repo.ts.
import { deps, type Api } from '../../http/api.js';
import { P } from '../../../shared/permissions.js';
import { DEVICE_CAPABILITIES } from '../../../shared/codes.js';
import { featuresQuery, type DeviceTypeDto, type DictionariesDto, type GlobalSettingsDto } from '../../../shared/schemas/reference.js';
import { readControllers, readCountries, readFeatures, readGlobalSetting, readLookup, readRoles } from './repo.js';

export function referenceRoutes(api: Api) {
  api.get('/ps-admin/dictionaries/get-all', { access: 'signed-in' }, async (c) => {
    const { db } = deps(c);
    const [Roles, Countries] = await Promise.all([readRoles(db), readCountries(db)]);
    const body: DictionariesDto = { Roles, Countries };
    return c.json(body);
  });

  api.get('/features/all', { access: 'public' }, async (c) => c.json(await readFeatures(deps(c).db)));
  api.get('/features', { access: 'public', query: featuresQuery, sample: { query: { name: 'SingleSignOn' } } }, async (c, { query }) =>
    c.json(await readFeatures(deps(c).db, query.name)),
  );

  api.get('/customers/get-global-settings', { access: 'signed-in' }, async (c) => {
    const n = Number((await readGlobalSetting(deps(c).db, 'TwoFactorAuthentication.Mode.Value')) ?? 0);
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
  api.get('/alarm-report/get-controllers', { access: P.AlarmReportListView }, async (c) => c.json(await readControllers(deps(c).db)));
}
