// Reference endpoints (dictionaries, features, global settings, lookup lists): their inputs and
// the response shapes both sides share.
import * as v from 'valibot';
import { ROLE, type RoleName } from '../permissions.js';
import { noNul } from './common.js';

/**
 * GET /features?name=A,B — optional filter by feature name (exact, case-sensitive; several
 * names separated by commas). Without it, the whole list (same as /features/all). Unknown
 * names are simply absent from the answer; the client treats an absent feature as off.
 */
export const featuresQuery = v.object({
  name: v.pipe(
    v.optional(v.string('name must be text.'), ''),
    v.maxLength(2000, 'name can be at most 2000 characters long.'),
    v.check(noNul, 'name must not contain NUL characters.'),
    v.transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    ),
  ),
});

// ---------------------------------------------------------------- responses

const ROLE_NAMES = Object.values(ROLE) as [RoleName, ...RoleName[]];

/** A role as persons and the dictionaries carry it. */
export const roleSchema = v.strictObject({ Id: v.string(), Name: v.picklist(ROLE_NAMES), IsDefault: v.boolean(), Order: v.number() });
export type RoleDto = v.InferOutput<typeof roleSchema>;

export const countrySchema = v.strictObject({ Id: v.string(), Code: v.string(), Name: v.string(), PhoneNumberCode: v.string() });
export type CountryDto = v.InferOutput<typeof countrySchema>;

/** A dictionary entry must sit under its own name. */
const roleEntry = (name: RoleName) =>
  v.pipe(
    roleSchema,
    v.check((r) => r.Name === name, `Roles.${name} must carry the role ${name}.`),
  );

/** GET /ps-admin/dictionaries/get-all — every role by name (spec §3: each with its Id), countries GB first. */
export const dictionariesSchema = v.strictObject({
  Roles: v.strictObject({
    [ROLE.SuperAdmin]: roleEntry(ROLE.SuperAdmin),
    [ROLE.SuperAdminReadonly]: roleEntry(ROLE.SuperAdminReadonly),
    [ROLE.ArcManager]: roleEntry(ROLE.ArcManager),
    [ROLE.ArcSupervisor]: roleEntry(ROLE.ArcSupervisor),
    [ROLE.ArcController]: roleEntry(ROLE.ArcController),
    [ROLE.PortalUser]: roleEntry(ROLE.PortalUser),
    [ROLE.Admin]: roleEntry(ROLE.Admin),
  }),
  Countries: v.array(countrySchema),
});
export type DictionariesDto = v.InferOutput<typeof dictionariesSchema>;

/** GET /features/all and GET /features — an absent feature counts as off. */
export const featuresSchema = v.strictObject({
  Features: v.array(v.strictObject({ FeatureName: v.string(), IsEnabled: v.boolean() })),
});
export type FeaturesDto = v.InferOutput<typeof featuresSchema>;

/** GET /customers/get-global-settings — Mode.Value 1 makes a second factor compulsory. */
export const globalSettingsSchema = v.strictObject({
  TwoFactorAuthentication: v.strictObject({ Mode: v.strictObject({ Value: v.number() }) }),
});
export type GlobalSettingsDto = v.InferOutput<typeof globalSettingsSchema>;

/** The lookup lists (stock service, alarm reports): [{ Value, Name }]. */
export const lookupSchema = v.strictObject({ Value: v.number(), Name: v.string() });
export type LookupDto = v.InferOutput<typeof lookupSchema>;
export const lookupListSchema = v.array(lookupSchema);

/** GET /api/v1/device/get-types — a lookup plus the type's capability flags. */
export const deviceTypeSchema = v.strictObject({ ...lookupSchema.entries, Capabilities: v.number() });
export type DeviceTypeDto = v.InferOutput<typeof deviceTypeSchema>;
export const deviceTypesSchema = v.array(deviceTypeSchema);

/** GET /alarm-report/get-controllers */
export const controllerSchema = v.strictObject({ Id: v.string(), FullName: v.string() });
export type ControllerDto = v.InferOutput<typeof controllerSchema>;
export const controllersSchema = v.array(controllerSchema);
