// Provider administration: the feature toggles and global settings, the companies that require
// single sign-on, a person's login method, and the audit trail. Inputs and answers both sides share.
import * as v from 'valibot';
import { ID_PATTERN, isValidId, LOGIN_METHOD, normaliseId } from '../codes.js';
import { inputJson, noNul, pagedListSchema } from './common.js';

/** The twelve features of spec document 1 §1 and ours (ScheduledUsageReport), each with what it switches. An absent feature counts as off. */
export const FEATURES = {
  AssignDevice: 'Allocating devices to a customer (the Devices tab of a customer).',
  Devices: 'The device stock: Asset Management and the device pages.',
  ExportReportExcel: 'Exporting alarm reports to an .xlsx workbook.',
  ScheduledReports: 'Scheduled reports for customers.',
  ExportManagementReportPDF: 'Exporting the management report as PDF.',
  StandardMobile: 'The standard mobile app subscription for customers.',
  HardDeletePerson: 'Deleting a person for good instead of deactivating.',
  CustomCheckInTime: 'Custom check-in timers on a customer’s app subscription.',
  SingleSignOn: 'The “Sign in with single sign-on” button and the single-sign-on grant.',
  AppTileLayoutConfiguration: 'Configuring the tile layout of the mobile app.',
  EnableAlarmReportIntelligence: 'Alarm report intelligence in a customer’s settings.',
  AutoGenerateAlarmReportIntelligence: 'Generating alarm report intelligence automatically.',
  ScheduledUsageReport: 'Sending a customer’s monthly usage report by e-mail (scheduled reports).',
} as const;
export type FeatureName = keyof typeof FEATURES;
export const FEATURE_NAMES = Object.keys(FEATURES) as [FeatureName, ...FeatureName[]];

/** The global setting the product honours: 1 makes a second factor compulsory ('Disabled' leaves the 2FA choice). */
export const TWO_FACTOR_MODE = { key: 'TwoFactorAuthentication.Mode.Value', optional: 0, enforced: 1 } as const;

// The login methods are defined once, with the other codes; the admin screens take them from here too.
export { LOGIN_METHOD };
export const LOGIN_METHOD_LABELS: Record<number, string> = { 1: 'Password', 2: 'Single sign-on' };

const email = (field: string) =>
  v.pipe(
    v.string(`${field} must be text.`),
    v.trim(),
    v.toLowerCase(),
    v.maxLength(254, `${field} can be at most 254 characters long.`),
    v.email(`${field} must be a valid e-mail address.`),
  );
const guid = (field: string) =>
  v.pipe(
    v.string(`${field} must be text.`),
    inputJson({ type: 'string', pattern: ID_PATTERN.source }),
    v.check((s: string) => isValidId(s), `${field} must be a valid id.`),
    v.transform(normaliseId),
  );

/** PUT /ps-admin/settings/feature */
export const featureUpdateBody = v.object({
  name: v.picklist(FEATURE_NAMES, 'name must be one of the known features.'),
  isEnabled: v.boolean('isEnabled must be true or false.'),
});

/** PUT /ps-admin/settings/two-factor-mode */
export const twoFactorModeBody = v.object({
  value: v.picklist([TWO_FACTOR_MODE.optional, TWO_FACTOR_MODE.enforced], 'value must be 0 (optional) or 1 (enforced).'),
});

/** A company e-mail domain: letters, digits and hyphens in dot-separated labels, at least two labels. */
export const DOMAIN_PATTERN = /^(?=.{3,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** POST /ps-admin/sso-domains */
export const ssoDomainAddBody = v.object({
  domain: v.pipe(
    v.string('domain must be text.'),
    v.trim(),
    v.toLowerCase(),
    inputJson({ type: 'string', pattern: `^\\s*@?${DOMAIN_PATTERN.source.slice(1, -1)}\\s*$` }),
    v.transform((s) => s.replace(/^@/, '')),
    v.regex(DOMAIN_PATTERN, 'Enter a domain such as example.com.'),
  ),
  customerId: v.optional(v.nullable(guid('customerId')), null),
});
export const ssoDomainQuery = v.object({ domain: v.pipe(v.string('domain must be text.'), v.trim(), v.toLowerCase(), v.minLength(1, 'domain is required.')) });

/** PUT /api/v1/person/:id/login-method */
export const loginMethodBody = v.object({
  loginMethod: v.picklist([LOGIN_METHOD.Password, LOGIN_METHOD.SingleSignOn], 'loginMethod must be 1 (password) or 2 (single sign-on).'),
  ssoEmail: v.optional(v.nullable(v.union([v.literal(''), email('ssoEmail')])), null),
});

/** GET /ps-admin/persons/get-login-method?id= */
export const loginMethodQuery = v.object({ id: guid('id') });
export const loginMethodSchema = v.strictObject({ LoginMethod: v.number(), SsoEmail: v.nullable(v.string()) });
export type LoginMethodDto = v.InferOutput<typeof loginMethodSchema>;

/**
 * The hub event sent to every connection (not a device group) when a feature, a global setting or
 * an enforced single-sign-on domain changed: open clients refetch their features and global
 * settings at once instead of at the next staleness check or window focus.
 */
export const SETTINGS_CHANGED_EVENT = 'SettingsChanged';
export const SETTINGS_CHANGE_KINDS = ['feature', 'global-setting', 'sso-domain'] as const;
export const settingsChangedEventSchema = v.strictObject({ Kind: v.picklist(SETTINGS_CHANGE_KINDS), Name: v.string(), At: v.string() });
export type SettingsChangedEvent = v.InferOutput<typeof settingsChangedEventSchema>;

/** POST /ps-admin/audit/get-list */
export const AUDIT_PAGE_SIZES = [25, 50, 100, 200] as const;
const text = (field: string) =>
  v.optional(v.pipe(v.string(`${field} must be text.`), v.trim(), v.maxLength(100, `${field} can be at most 100 characters long.`), v.check(noNul)), '');
const isoDate = (field: string) =>
  v.optional(
    v.nullable(
      v.pipe(
        v.string(`${field} must be a date.`),
        inputJson({ type: 'string', format: 'date-time' }),
        v.check((s) => !Number.isNaN(Date.parse(s)), `${field} must be a date.`),
      ),
    ),
    null,
  );
export const auditListBody = v.object({
  actor: text('actor'),
  entity: text('entity'),
  action: text('action'),
  entityId: text('entityId'),
  from: isoDate('from'),
  to: isoDate('to'),
  pageNumber: v.optional(v.pipe(v.number('pageNumber must be a number.'), v.integer(), v.minValue(1), v.maxValue(1_000_000)), 1),
  pageSize: v.optional(v.picklist(AUDIT_PAGE_SIZES, 'pageSize must be 25, 50, 100 or 200.'), 100),
});
export type AuditListRequest = v.InferInput<typeof auditListBody>;

// ---------------------------------------------------------------- responses

export const adminSettingsSchema = v.strictObject({
  Features: v.array(v.strictObject({ FeatureName: v.string(), IsEnabled: v.boolean(), Description: v.string() })),
  TwoFactorAuthenticationMode: v.number(),
  SsoDomains: v.array(v.strictObject({ Domain: v.string(), CustomerId: v.nullable(v.string()), CustomerName: v.nullable(v.string()) })),
});
export type AdminSettingsDto = v.InferOutput<typeof adminSettingsSchema>;

export const auditEntrySchema = v.strictObject({
  Id: v.number(),
  At: v.string(),
  ActorId: v.nullable(v.string()),
  ActorName: v.nullable(v.string()),
  Action: v.string(),
  Entity: v.string(),
  EntityId: v.nullable(v.string()),
  Details: v.unknown(),
});
export type AuditEntryDto = v.InferOutput<typeof auditEntrySchema>;
/**
 * An entry as the audit list shows it: what its record is (a device's serial, a customer's name, a
 * person's name, an alarm report's alarm id, a schedule's name; null for a record of another kind or
 * one that no longer exists) and the client route that opens it (null where no screen shows it).
 */
export const auditListItemSchema = v.strictObject({
  ...auditEntrySchema.entries,
  RecordLabel: v.nullable(v.string()),
  RecordHref: v.nullable(v.string()),
});
export type AuditListItemDto = v.InferOutput<typeof auditListItemSchema>;
export const auditListSchema = pagedListSchema(auditListItemSchema);
export type AuditListDto = v.InferOutput<typeof auditListSchema>;

/** An audit entry's details as one line: `key: value` pairs, or before → after where the write knows both. */
export function describeAuditDetails(details: unknown): string {
  if (details == null || typeof details !== 'object') return details == null ? '' : String(details);
  const d = details as Record<string, unknown>;
  if ('before' in d && 'after' in d) return `${JSON.stringify(d.before)} → ${JSON.stringify(d.after)}`;
  return Object.entries(d)
    .map(([k, x]) => `${k}: ${typeof x === 'string' ? x : JSON.stringify(x)}`)
    .join(', ');
}
