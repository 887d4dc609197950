// Reference data every database needs, demo data or not: roles, countries, lookup lists,
// features and global settings. Idempotent: safe to run on every start.
import { getCountries, getCountryCallingCode } from 'libphonenumber-js';
import type { DB } from '../db/index.js';
import { ROLE_IDS, type RoleName } from '../../shared/permissions.js';
import {
  ALARM_TYPES,
  ASSET_STATUSES,
  CUSTOMER_STATUSES,
  DATE_RANGE_OPTIONS,
  DEVICE_TYPES,
  FEATURE_NAMES,
  LAST_CONFIG_FILTERS,
  SIM_TYPES,
  TIER_TYPES,
  VERIFICATION_CATEGORIES,
  VERIFICATION_TYPES,
  type Lookup,
} from '../../shared/codes.js';

export const LOOKUP_KINDS: Record<string, Lookup[]> = {
  deviceTypes: DEVICE_TYPES,
  simTypes: SIM_TYPES,
  assetStatuses: ASSET_STATUSES,
  lastConfigFilters: LAST_CONFIG_FILTERS,
  tierTypes: TIER_TYPES,
  customerStatuses: CUSTOMER_STATUSES,
  alarmTypes: ALARM_TYPES,
  verificationTypes: VERIFICATION_TYPES,
  verificationCategories: VERIFICATION_CATEGORIES,
  dateRangeOptions: DATE_RANGE_OPTIONS,
};

/** Features on by default (SingleSignOn is off: no identity provider is configured here). */
export const DEFAULT_FEATURES: Record<string, boolean> = Object.fromEntries(FEATURE_NAMES.map((n) => [n, n !== 'SingleSignOn' && n !== 'HardDeletePerson']));

/** Country ids are stable: 'country-' + ISO code, lower-case. */
export const countryId = (iso: string) => `country-${iso.toLowerCase()}`;

export function countryList() {
  const names = new Intl.DisplayNames(['en-GB'], { type: 'region' });
  return getCountries().map((code) => ({
    id: countryId(code),
    code,
    name: names.of(code) ?? code,
    phoneNumberCode: getCountryCallingCode(code),
  }));
}

export async function seedReferenceData(db: DB) {
  const roleNames = Object.keys(ROLE_IDS) as RoleName[];
  const haveRoles = new Set((await db.selectFrom('roles').select('id').execute()).map((r) => r.id));
  const missingRoles = roleNames
    .map((name, i) => ({ id: ROLE_IDS[name], name, isDefault: name === 'PortalUserRole' ? 1 : 0, order: i + 1 }))
    .filter((r) => !haveRoles.has(r.id));
  if (missingRoles.length) await db.insertInto('roles').values(missingRoles).execute();

  const haveCountries = await db.selectFrom('countries').select('id').limit(1).execute();
  if (haveCountries.length === 0) await db.insertInto('countries').values(countryList()).execute();

  const haveLookups = await db.selectFrom('lookups').select('kind').limit(1).execute();
  if (haveLookups.length === 0) {
    const rows = Object.entries(LOOKUP_KINDS).flatMap(([kind, list]) => list.map((l, i) => ({ kind, value: l.Value, name: l.Name, order: l.Order ?? i + 1 })));
    await db.insertInto('lookups').values(rows).execute();
  }

  const haveFeatures = await db.selectFrom('features').select('name').execute();
  const known = new Set(haveFeatures.map((f) => f.name));
  const missing = Object.entries(DEFAULT_FEATURES).filter(([n]) => !known.has(n));
  if (missing.length)
    await db
      .insertInto('features')
      .values(missing.map(([name, on]) => ({ name, isEnabled: on ? 1 : 0 })))
      .execute();

  const haveSettings = await db.selectFrom('globalSettings').select('key').execute();
  if (!haveSettings.some((s) => s.key === 'TwoFactorAuthentication.Mode.Value'))
    await db.insertInto('globalSettings').values({ key: 'TwoFactorAuthentication.Mode.Value', value: '0' }).execute();
}
