// Reference endpoints (dictionaries, features, global settings, lookup lists): their inputs and
// the response shapes both sides share.
import * as v from 'valibot';
import type { RoleName } from '../permissions.js';
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
    v.transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean)),
  ),
});

export type RoleDto = { Id: string; Name: RoleName; IsDefault: boolean; Order: number };
export type CountryDto = { Id: string; Code: string; Name: string; PhoneNumberCode: string };
export type DictionariesDto = { Roles: Record<RoleName, RoleDto>; Countries: CountryDto[] };
export type FeaturesDto = { Features: { FeatureName: string; IsEnabled: boolean }[] };
export type GlobalSettingsDto = { TwoFactorAuthentication: { Mode: { Value: number } } };
export type LookupDto = { Value: number; Name: string };
export type DeviceTypeDto = LookupDto & { Capabilities: number };
export type ControllerDto = { Id: string; FullName: string };
