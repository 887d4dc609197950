// Customer endpoints (spec document 2, §3 "Customer ...", §4, §5, §7 "Customer/query service" and
// "Stock service", §8): THE CONTRACT between the customer server (src/server/modules/customers)
// and the customer pages. Input schemas validate on the server (and may be reused by the forms);
// answer schemas are strict, so the contract test fails when either side drifts.
//
// Naming follows the spec: the query service (ps-admin/...) answers PascalCase, the stock service
// (/api/v1/...) answers camelCase, inputs are what §7 names.
//
// Answer shapes and errors the client must know:
// - every customer id (query CustomerId / id / customerId, path :customerId) is a GUID as spec §5
//   allows; an invalid one is 400 CUSTOMER_TEXT.invalidId, an unknown one 404 Code
//   'customer_not_found' (MSG.badUrl).
// - updates with an etag: a stale one is 409 Code 'etag_conflict' (MSG.staleEtag), nothing written.
//   subscriptions/update checks three etags; Errors names each stale one ('customerEtag',
//   'deviceSubscriptionsEtag', 'appSubscriptionsEtag').
// - validation: 400 Code 'validation_error', Errors maps the field path to the message (e.g.
//   'customerAccount.portalReferenceNumber' → MSG.portalRefNumber).
// - allocate-many is all or nothing: 409 'etag_conflict' (Errors: device id → DEVICE_TEXT.stale /
//   .missing), 422 'device_not_eligible' (device id → CUSTOMER_TEXT.notAllocatable), 422
//   'allocation_exceeds_subscription' when a device type's purchased-minus-allocated quota would be
//   exceeded and the caller asked for the check with `force: false` (Errors: device type value →
//   CUSTOMER_TEXT.quotaExceeded(name, left, asked)). The spec's payload has no `force`: the question
//   ('Allocation of {types} exceeds subscription are you sure?') is the client's, so without it the
//   server allocates. Our client sends force: false, confirms on 422 and resends with force: true
//   (the quota may have changed since the page loaded).
// - subscriptions/update: likewise 422 'allocation_exceeds_subscription' when a device type's
//   purchased number is below what is allocated and `force: false` was sent (Errors: device type
//   value → message); the client shows 'Change Device Configuration' and resends with force: true.
// - settings/update: the super-admin-only toggles (SUPER_ADMIN_SETTINGS) may only change for a
//   caller holding the super admin role (403 otherwise); EnableAlarmReportIntelligence needs the
//   feature flag EnableAlarmReportIntelligence and AutoGenerateAlarmIntelligence also
//   AutoGenerateAlarmReportIntelligence (422 'feature_disabled' when turned on without it); with
//   Alarm Report Intelligence off, auto-generate is stored off. Turning IsAutomaticEmailsPaused off
//   releases the held e-mails (they are sent by the outbox relay).
import * as v from 'valibot';
import { MSG } from '../messages.js';
import { CUSTOMER_STATUSES, DEVICE_TYPES, PAGE_SIZES, TIER_TYPES } from '../codes.js';
import {
  bodySearch,
  edgeEntries,
  guid,
  inputJson,
  MAX_PAGE,
  noNul,
  NOT_BLANK,
  pagedListSchema,
  pageMessage,
  pageSizeMessage,
  pagingBody,
  qsBool,
  qsChoice,
  qsInt,
  qsSearch,
} from './common.js';
import { lookupDtoSchema, type DeviceListFilter } from './devices.js';
import { lookupSchema } from './reference.js';

// ---------------------------------------------------------------- constants and messages

export const CUSTOMER_NAME_MAX = 200;
export const CUSTOMER_TEXT_MAX = 200;
export const PORTAL_REFERENCE_MAX = 18;
export const CRM_QUERY_MAX = 100;
/** Spec §9: CRM account search debounce. */
export const CRM_DEBOUNCE_MS = 600;
/** Most CRM accounts one search answers. */
export const CRM_RESULT_LIMIT = 20;
/** Spec §5 / §9: the tracking interval is at least 5 minutes. */
export const MIN_TRACKING_INTERVAL = 5;
export const MAX_TRACKING_INTERVAL = 1440;
export const MAX_PURCHASED = 1_000_000;
/** Spec §9: the customer admin list pages by 10, ordered by UserName descending. */
export const ADMIN_PAGE_SIZE = 10;

/** App subscription types (spec §3: Pro, SOS, Mobile; numbers ours). */
export const APP_SUBSCRIPTION_TYPES = [
  { Value: 1, Name: 'Pro' },
  { Value: 2, Name: 'SOS' },
  { Value: 3, Name: 'Mobile' },
] as const;
export const APP_SUBSCRIPTION_VALUES = APP_SUBSCRIPTION_TYPES.map((t) => t.Value) as number[];

/** The settings only the super admin role sees and may change (spec §6). */
export const SUPER_ADMIN_SETTINGS = [
  'EnableDiscreetAlarmApp',
  'EnableFallDetectionApp',
  'EnableSmsActivityConfirmation',
  'EnableAlarmReportIntelligence',
  'AutoGenerateAlarmIntelligence',
] as const;

/** Server-side messages the spec does not quote. */
export const CUSTOMER_TEXT = {
  badBody: 'The request body must be a JSON object.',
  invalidId: 'The customer id is not valid.',
  invalidTenant: 'The tenant id is not valid.',
  nameRequired: MSG.pleaseEnter('account name'),
  nameTooLong: `An account name can be at most ${CUSTOMER_NAME_MAX} characters long.`,
  tooLong: `Text can be at most ${CUSTOMER_TEXT_MAX} characters long.`,
  migratedRequired: 'Please select whether this is a migrated account',
  portalReferenceRequired: MSG.pleaseEnter('portal reference'),
  portalReferenceTooLong: `A portal reference can be at most ${PORTAL_REFERENCE_MAX} digits long.`,
  statusRequired: MSG.pleaseSelectOne('status'),
  unknownStatus: 'Unknown customer status.',
  unknownTier: 'Unknown tier.',
  unknownCountry: 'Unknown country.',
  etagRequired: 'The customer version (etag) is missing. Reload the customer and try again.',
  payloadMissing: MSG.updatePayloadMissing,
  unknownDeviceType: 'Unknown device type.',
  unknownAppSubscriptionType: 'Unknown app subscription type.',
  duplicateType: 'A subscription type is listed twice.',
  trackingInterval: MSG.atLeast5,
  trackingIntervalTooLarge: `The tracking interval can be at most ${MAX_TRACKING_INTERVAL} minutes.`,
  purchased: MSG.subscriptionNumbers,
  belowAllocation: (type: string, allocated: number, purchased: number) =>
    `${allocated} ${type} device(s) are allocated to this customer but only ${purchased} would be subscribed.`,
  belowAllocationMany: (types: string) =>
    `There are more ${types} allocated in this customers account than the subscription allows for. Are you sure you want to save?`,
  superAdminOnly: 'Only a super admin can change this setting.',
  featureDisabled: (feature: string) => `This setting needs the feature ${feature}, which is turned off.`,
  notAllocatable: 'Not eligible: the device can not be allocated (it is in a customer account or its status does not allow it).',
  notAllocatableMany: (n: number) => `${n} device(s) can not be allocated; nothing was allocated.`,
  quotaExceeded: (type: string, left: number, asked: number) => `${asked} ${type} device(s) asked for but only ${Math.max(0, left)} left in the subscription.`,
  quotaExceededMany: (types: string) => `Allocation of ${types} exceeds subscription are you sure?`,
  crmQueryTooLong: `A CRM search can be at most ${CRM_QUERY_MAX} characters long.`,
  crmUnavailable: 'The CRM can not be reached, please try again later.',
  tenantNotCustomer: 'This tenant is not a customer account.',
  administratorEmailTaken: 'A user with this email already exists.',
} as const;

/** Error codes of the customer endpoints (Content.Code), next to CODE.conflict / CODE.validation. */
export const CUSTOMER_CODE = {
  notFound: 'customer_not_found',
  allocationExceeds: 'allocation_exceeds_subscription',
  featureDisabled: 'feature_disabled',
  crmUnavailable: 'crm_unavailable',
} as const;

// ---------------------------------------------------------------- building blocks

const tierValues = TIER_TYPES.map((t) => t.Value);
const statusValues = CUSTOMER_STATUSES.map((s) => s.Value);
const deviceTypeValues = DEVICE_TYPES.map((t) => t.Value);

const customerId = guid(CUSTOMER_TEXT.invalidId);
const etag = v.pipe(v.string(CUSTOMER_TEXT.etagRequired), v.trim(), v.nonEmpty(CUSTOMER_TEXT.etagRequired), v.maxLength(200, CUSTOMER_TEXT.etagRequired));
const optEtag = v.optional(v.nullable(etag), null);
const bool = (message: string) => v.boolean(message);
/** Optional text: missing, null or blank gives null. */
const optText = (max = CUSTOMER_TEXT_MAX, message: string = CUSTOMER_TEXT.tooLong) =>
  v.pipe(
    v.optional(v.nullable(v.string(message)), null),
    v.transform((s) => (s == null ? null : s.trim() || null)),
    v.check((s) => s === null || s.length <= max, message),
    v.check((s) => s === null || noNul(s), message),
  );

// ---------------------------------------------------------------- customer list (stock service)

export const CUSTOMER_ORDER_BY = ['Reference', 'Name', 'Tier', 'Status', 'Migrated'] as const;
export type CustomerOrderBy = (typeof CUSTOMER_ORDER_BY)[number];

/**
 * POST api/v1/customer/get-list — the customer list's filter body; everything optional:
 * { page = 1, pageSize = 10 (10/25/50/100), searchValue (part of the reference or the name,
 * case-insensitive), tierIds [], statusIds [], migratedOnly = false, orderBy = 'Reference',
 * desc = false }. Sorting puts missing values (internal accounts have no tier or status,
 * non-migrated ones no reference) last in both directions; ties break on the name.
 */
export const customerListBody = v.object(
  {
    ...pagingBody,
    searchValue: bodySearch,
    tierIds: v.optional(
      v.pipe(
        v.nullable(v.array(v.picklist(tierValues, CUSTOMER_TEXT.unknownTier), CUSTOMER_TEXT.unknownTier)),
        v.transform((a) => a ?? []),
      ),
      [],
    ),
    statusIds: v.optional(
      v.pipe(
        v.nullable(v.array(v.picklist(statusValues, CUSTOMER_TEXT.unknownStatus), CUSTOMER_TEXT.unknownStatus)),
        v.transform((a) => a ?? []),
      ),
      [],
    ),
    migratedOnly: v.optional(
      v.pipe(
        v.nullable(v.boolean('migratedOnly must be true or false.')),
        v.transform((b) => b ?? false),
      ),
      false,
    ),
    orderBy: v.optional(v.picklist(CUSTOMER_ORDER_BY, `orderBy must be one of ${CUSTOMER_ORDER_BY.join(', ')}.`), 'Reference'),
    desc: v.optional(v.boolean('desc must be true or false.'), false),
    ...edgeEntries,
  },
  CUSTOMER_TEXT.badBody,
);
export type CustomerListBody = v.InferOutput<typeof customerListBody>;
export type CustomerListFilter = v.InferInput<typeof customerListBody>;

/** A customer list row (spec §3): reference is the portal reference (null unless migrated). */
export const customerListItemSchema = v.strictObject({
  id: v.string(),
  tenantId: v.string(),
  reference: v.nullable(v.string()),
  name: v.string(),
  tier: v.nullable(lookupDtoSchema),
  status: v.nullable(lookupDtoSchema),
  migrated: v.boolean(),
});
export type CustomerListItem = v.InferOutput<typeof customerListItemSchema>;
/** totalCount: customers matching the filters; generalTotalCount: all customers. */
export const customerListSchema = v.strictObject({ customers: v.array(customerListItemSchema), totalCount: v.number(), generalTotalCount: v.number() });
export type CustomerList = v.InferOutput<typeof customerListSchema>;

/** GET /api/v1/customer/get-by-id?id= → a list row plus the etag. */
export const customerByIdQuery = v.object({ id: customerId });
export const customerSchema = v.strictObject({ ...customerListItemSchema.entries, etag: v.string() });
export type CustomerDto = v.InferOutput<typeof customerSchema>;

/** POST /api/v1/customer/export/list-with-filters: the list body without paging (page/pageSize are ignored). */
export const customerExportBody = customerListBody;

// ---------------------------------------------------------------- query service: one customer

/** GET ps-admin/customers/get-details|get-subscriptions|get-settings ?CustomerId= (customerId also accepted). */
export const customerIdQuery = v.pipe(
  v.object({ CustomerId: v.optional(v.string(CUSTOMER_TEXT.invalidId)), customerId: v.optional(v.string(CUSTOMER_TEXT.invalidId)) }),
  v.transform((q) => q.CustomerId ?? q.customerId ?? ''),
  customerId,
);

/** GET ps-admin/customers/get-details (spec §3 "Customer details"; TenantId and Address.CountryId are ours, for the edit form and the admin calls). */
export const customerDetailsSchema = v.strictObject({
  Id: v.string(),
  TenantId: v.string(),
  Name: v.string(),
  Etag: v.string(),
  PortalId: v.nullable(v.string()),
  PhoneNumber: v.nullable(v.string()),
  Tier: v.nullable(lookupSchema),
  Status: v.nullable(lookupSchema),
  IsMigratedAccount: v.boolean(),
  SalesforceId: v.nullable(v.string()),
  SalesforceUrn: v.nullable(v.string()),
  IsSalesforceAccount: v.boolean(),
  /** The account in the CRM (spec §3 account tab "Salesforce URN and link"): a Salesforce URL when Salesforce is configured, else null (the embedded directory has no pages). Optional in the type for older fixtures; the server always sends it. */
  SalesforceLink: v.optional(v.nullable(v.string())),
  AccountManagerFullName: v.nullable(v.string()),
  CustomerSuccessManagerFullName: v.nullable(v.string()),
  Address: v.strictObject({
    AddressLine1: v.nullable(v.string()),
    AddressLine2: v.nullable(v.string()),
    City: v.nullable(v.string()),
    County: v.nullable(v.string()),
    PostCode: v.nullable(v.string()),
    /** The country's name. */
    Country: v.nullable(v.string()),
    CountryId: v.nullable(v.string()),
  }),
});
export type CustomerDetails = v.InferOutput<typeof customerDetailsSchema>;

/** GET ps-admin/customers/filters-all — the list's filter options. */
export const customerFiltersSchema = v.strictObject({ Tiers: v.array(lookupSchema), Statuses: v.array(lookupSchema) });
export type CustomerFilters = v.InferOutput<typeof customerFiltersSchema>;

// ---------------------------------------------------------------- duplicates

/**
 * GET ps-admin/customers/get-duplicates ?Name&PortalReferenceNumber&SalesforceUrn — customers whose
 * name equals Name (case-insensitive, trimmed), whose portal reference equals PortalReferenceNumber
 * or whose CRM URN equals SalesforceUrn (case-insensitive). Empty parameters match nothing.
 */
export const customerDuplicatesQuery = v.object({
  Name: qsSearch(CUSTOMER_NAME_MAX),
  PortalReferenceNumber: qsSearch(PORTAL_REFERENCE_MAX),
  SalesforceUrn: qsSearch(CUSTOMER_TEXT_MAX),
});
export const DUPLICATE_MATCH = ['Name', 'PortalReferenceNumber', 'SalesforceUrn'] as const;
export const customerDuplicateSchema = v.strictObject({
  Id: v.string(),
  Name: v.string(),
  PortalId: v.nullable(v.string()),
  SalesforceUrn: v.nullable(v.string()),
  SalesforceId: v.nullable(v.string()),
  /** Which of the parameters this customer matched. */
  MatchedOn: v.array(v.picklist(DUPLICATE_MATCH)),
});
export type CustomerDuplicate = v.InferOutput<typeof customerDuplicateSchema>;
export const customerDuplicatesSchema = v.strictObject({ Duplicates: v.array(customerDuplicateSchema) });
export type CustomerDuplicates = v.InferOutput<typeof customerDuplicatesSchema>;

// ---------------------------------------------------------------- create / update

const portalReference = v.pipe(
  v.optional(v.nullable(v.union([v.string(MSG.portalRefNumber), v.number(MSG.portalRefNumber)], MSG.portalRefNumber)), null),
  inputJson<string | number | null>({
    anyOf: [
      { type: 'string', pattern: `^\\s*\\d{0,${PORTAL_REFERENCE_MAX}}\\s*$` },
      { type: 'integer', minimum: 0, maximum: 10 ** Math.min(PORTAL_REFERENCE_MAX, 15) - 1 },
      { type: 'null' },
    ],
  }),
  v.transform((x) => (x == null ? null : String(x).trim() || null)),
  v.check((s) => s === null || /^\d+$/.test(s), MSG.portalRefNumber),
  v.check((s) => s === null || s.length <= PORTAL_REFERENCE_MAX, CUSTOMER_TEXT.portalReferenceTooLong),
);

/**
 * The customer payload of create and update (spec §3). Rules checked on the server besides the
 * field types: portalReferenceNumber is required when isMigratedAccount is true on create, and on
 * update when the account is not migrated yet (a migrated account keeps its stored reference
 * when it is left out); it is ignored for non-migrated accounts. customerStatus is required for a
 * customer (CRM-linked: salesforceUrn set) account; an internal account (no salesforceUrn) stores
 * no URN, managers, tier or status. A leading + is added to the phone number. countryId is an id
 * of the dictionaries' Countries. tenantId is optional on create (the server makes one when
 * missing) and ignored on update.
 */
export const customerPayload = v.object(
  {
    name: v.pipe(
      v.optional(v.nullable(v.string(CUSTOMER_TEXT.nameRequired)), ''),
      inputJson<string | null>({ type: 'string', pattern: NOT_BLANK, maxLength: CUSTOMER_NAME_MAX }, { required: true }),
      v.transform((s) => (s ?? '').trim()),
      v.nonEmpty(CUSTOMER_TEXT.nameRequired),
      v.maxLength(CUSTOMER_NAME_MAX, CUSTOMER_TEXT.nameTooLong),
      v.check(noNul, CUSTOMER_TEXT.nameRequired),
    ),
    tenantId: v.optional(v.nullable(guid(CUSTOMER_TEXT.invalidTenant)), null),
    addressDto: v.optional(
      v.nullable(
        v.object(
          {
            addressLine1: optText(),
            addressLine2: optText(),
            county: optText(),
            city: optText(),
            postCode: optText(20),
            countryId: optText(64, CUSTOMER_TEXT.unknownCountry),
          },
          CUSTOMER_TEXT.badBody,
        ),
      ),
      null,
    ),
    isMigratedAccount: v.pipe(
      v.optional(v.nullable(v.boolean(CUSTOMER_TEXT.migratedRequired)), null),
      inputJson<boolean | null>({ type: 'boolean' }, { required: true }),
      v.check((b) => b !== null, CUSTOMER_TEXT.migratedRequired),
      v.transform((b) => b === true),
    ),
    phoneNumber: optText(32),
    customerStatus: v.optional(v.nullable(v.picklist(statusValues, CUSTOMER_TEXT.unknownStatus)), null),
    portalReferenceNumber: portalReference,
    salesforceId: optText(64),
    salesforceUrn: optText(64),
    ownerFullName: optText(),
    customerSuccessManagerFullName: optText(),
    customerSuccessTier: v.optional(v.nullable(v.picklist(tierValues, CUSTOMER_TEXT.unknownTier)), null),
  },
  CUSTOMER_TEXT.badBody,
);
export type CustomerPayload = v.InferOutput<typeof customerPayload>;
export type CustomerPayloadInput = v.InferInput<typeof customerPayload>;

/**
 * POST /api/v1/customer/create — the customer payload, plus (ours, optional) the first
 * administrator { firstName, lastName, emailAddress }: created in the same transaction as a person
 * of the new tenant with the admin and portal user roles, with a set-password e-mail.
 * Answer: { Id, Etag, TenantId } (201).
 */
export const customerCreateBody = v.object(
  {
    ...customerPayload.entries,
    administrator: v.optional(
      v.nullable(
        v.object(
          {
            firstName: v.pipe(
              v.string(MSG.pleaseEnter('first name')),
              v.trim(),
              v.nonEmpty(MSG.pleaseEnter('first name')),
              v.maxLength(100, CUSTOMER_TEXT.tooLong),
            ),
            lastName: v.pipe(
              v.string(MSG.pleaseEnter('last name')),
              v.trim(),
              v.nonEmpty(MSG.pleaseEnter('last name')),
              v.maxLength(100, CUSTOMER_TEXT.tooLong),
            ),
            emailAddress: v.pipe(
              v.string(MSG.pleaseEnter('email')),
              v.trim(),
              v.nonEmpty(MSG.pleaseEnter('email')),
              v.maxLength(254, CUSTOMER_TEXT.tooLong),
              v.regex(/^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/, MSG.enterValidEmail),
              v.toLowerCase(),
            ),
          },
          CUSTOMER_TEXT.badBody,
        ),
      ),
      null,
    ),
  },
  CUSTOMER_TEXT.badBody,
);
export type CustomerCreateBody = v.InferOutput<typeof customerCreateBody>;
export type CustomerCreateInput = v.InferInput<typeof customerCreateBody>;
export const customerCreatedSchema = v.strictObject({ Id: v.string(), Etag: v.string(), TenantId: v.string() });
export type CustomerCreated = v.InferOutput<typeof customerCreatedSchema>;

/** PUT /api/v1/customer/update?customerId= — body { customerAccount, etag }; answer { Etag }. */
export const customerUpdateQuery = v.object({ customerId });
export const customerUpdateBody = v.object(
  { customerAccount: v.object(customerPayload.entries, CUSTOMER_TEXT.payloadMissing), etag },
  CUSTOMER_TEXT.payloadMissing,
);
export type CustomerUpdateBody = v.InferOutput<typeof customerUpdateBody>;
export type CustomerUpdateInput = v.InferInput<typeof customerUpdateBody>;

// ---------------------------------------------------------------- subscriptions

export const additionalServicesSchema = v.strictObject({
  NationalResponse: v.boolean(),
  GlobalResponse: v.boolean(),
  Eurowatch: v.boolean(),
  TranslationServices: v.boolean(),
  CheckInTimers: v.boolean(),
  TeamBroadcast: v.boolean(),
});
export const appFeaturesSchema = v.strictObject({
  IsWelfareCheckEnabled: v.boolean(),
  IsFallDetectionEnabled: v.boolean(),
  IsTravelSafeEnabled: v.boolean(),
  IsTrackingEnabled: v.boolean(),
  IsSureCamEnabled: v.boolean(),
  /** Minutes. */
  TrackingInterval: v.number(),
  IsSosDisabled: v.boolean(),
});

/**
 * GET ps-admin/customers/get-subscriptions?CustomerId= (spec §3 "Customer subscriptions").
 * DeviceSubscriptions.Subscriptions has one row per device type (every type, in DEVICE_TYPES
 * order; the page shows only purchased or allocated above 0 unless 'Show all'): Allocated = the
 * customer's devices of the type, Assigned = those assigned to a user. AppSubscriptions.Subscriptions
 * has one row per app subscription type: Assigned = the customer's persons holding it (ours: the
 * lone workers, counted against Pro), Left = Purchased - Assigned.
 */
export const customerSubscriptionsSchema = v.strictObject({
  CustomerId: v.string(),
  CustomerEtag: v.string(),
  CustomerTenantId: v.string(),
  AdditionalServices: additionalServicesSchema,
  DeviceSubscriptions: v.strictObject({
    Etag: v.string(),
    Subscriptions: v.array(v.strictObject({ Type: lookupSchema, Purchased: v.number(), Allocated: v.number(), Assigned: v.number() })),
  }),
  AppSubscriptions: v.strictObject({
    Etag: v.string(),
    AppFeatures: appFeaturesSchema,
    Subscriptions: v.array(v.strictObject({ Type: lookupSchema, Purchased: v.number(), Assigned: v.number(), Left: v.number() })),
  }),
});
export type CustomerSubscriptions = v.InferOutput<typeof customerSubscriptionsSchema>;

const purchased = v.pipe(
  v.number(CUSTOMER_TEXT.purchased),
  v.integer(CUSTOMER_TEXT.purchased),
  v.minValue(0, CUSTOMER_TEXT.purchased),
  v.maxValue(MAX_PURCHASED, CUSTOMER_TEXT.purchased),
);
const flag = bool('must be true or false.');

/**
 * PUT /api/v1/customer/subscriptions/update?customerId= (spec §7). Each section is optional; a
 * section sent needs its etag: deviceSubscriptions ↔ deviceSubscriptionsEtag, appSubscriptions
 * (features and subscriptions) ↔ appSubscriptionsEtag, additionalServices ↔ customerEtag. Etags of
 * sections not sent may be null. Device types left out of deviceSubscriptions.subscriptions keep
 * their purchased number. trackingInterval (minutes) is required and at least 5 while tracking is
 * enabled (MSG.atLeast5); 0 when empty. `force: false` asks the server to refuse (422) a purchased
 * number below what is allocated; true or omitted (the spec's payload) saves. Answer: the subscriptions as get-subscriptions answers them, with the new etags.
 */
export const subscriptionsUpdateQuery = v.object({ customerId });
export const subscriptionsUpdateBody = v.object(
  {
    deviceSubscriptions: v.optional(
      v.nullable(
        v.object(
          {
            subscriptions: v.pipe(
              v.array(
                v.object({ deviceType: v.picklist(deviceTypeValues, CUSTOMER_TEXT.unknownDeviceType), purchased }, CUSTOMER_TEXT.purchased),
                CUSTOMER_TEXT.purchased,
              ),
              v.maxLength(DEVICE_TYPES.length, CUSTOMER_TEXT.duplicateType),
              v.check((a) => new Set(a.map((s) => s.deviceType)).size === a.length, CUSTOMER_TEXT.duplicateType),
            ),
          },
          CUSTOMER_TEXT.payloadMissing,
        ),
      ),
      null,
    ),
    appSubscriptions: v.optional(
      v.nullable(
        v.object(
          {
            appFeatures: v.pipe(
              v.object(
                {
                  isWelfareCheckEnabled: flag,
                  isFallDetectionEnabled: flag,
                  isTravelSafeEnabled: flag,
                  isTrackingEnabled: flag,
                  isSureCamEnabled: flag,
                  trackingInterval: v.pipe(
                    v.optional(v.nullable(v.number(CUSTOMER_TEXT.trackingInterval)), 0),
                    v.transform((n) => n ?? 0),
                    v.integer(CUSTOMER_TEXT.trackingInterval),
                    v.minValue(0, CUSTOMER_TEXT.trackingInterval),
                    v.maxValue(MAX_TRACKING_INTERVAL, CUSTOMER_TEXT.trackingIntervalTooLarge),
                  ),
                  isSosDisabled: flag,
                },
                CUSTOMER_TEXT.payloadMissing,
              ),
              v.forward(
                v.check((f) => !f.isTrackingEnabled || f.trackingInterval >= MIN_TRACKING_INTERVAL, CUSTOMER_TEXT.trackingInterval),
                ['trackingInterval'],
              ),
            ),
            subscriptions: v.pipe(
              v.array(
                v.object(
                  { appSubscriptionType: v.picklist(APP_SUBSCRIPTION_VALUES, CUSTOMER_TEXT.unknownAppSubscriptionType), purchased },
                  CUSTOMER_TEXT.purchased,
                ),
                CUSTOMER_TEXT.purchased,
              ),
              v.check((a) => new Set(a.map((s) => s.appSubscriptionType)).size === a.length, CUSTOMER_TEXT.duplicateType),
            ),
          },
          CUSTOMER_TEXT.payloadMissing,
        ),
      ),
      null,
    ),
    additionalServices: v.optional(
      v.nullable(
        v.object(
          {
            nationalResponse: flag,
            globalResponse: flag,
            eurowatch: flag,
            translationServices: flag,
            checkInTimers: flag,
            teamBroadcast: flag,
          },
          CUSTOMER_TEXT.payloadMissing,
        ),
      ),
      null,
    ),
    customerEtag: optEtag,
    deviceSubscriptionsEtag: optEtag,
    appSubscriptionsEtag: optEtag,
    force: v.optional(v.boolean('force must be true or false.')),
  },
  CUSTOMER_TEXT.payloadMissing,
);
export type SubscriptionsUpdateBody = v.InferOutput<typeof subscriptionsUpdateBody>;
export type SubscriptionsUpdateInput = v.InferInput<typeof subscriptionsUpdateBody>;

// ---------------------------------------------------------------- settings

export const customerSettingsFlagsSchema = v.strictObject({
  IsAutomaticEmailsPaused: v.boolean(),
  AllowDeviceSubscriptionChanges: v.boolean(),
  EnableDiscreetAlarmApp: v.boolean(),
  EnableFallDetectionApp: v.boolean(),
  EnableSmsActivityConfirmation: v.boolean(),
  EnableAlarmReportIntelligence: v.boolean(),
  AutoGenerateAlarmIntelligence: v.boolean(),
});
export type CustomerSettingsFlags = v.InferOutput<typeof customerSettingsFlagsSchema>;
/** GET ps-admin/customers/get-settings?CustomerId= (spec §3 "Customer settings"). */
export const customerSettingsSchema = v.strictObject({ CustomerEtag: v.string(), TenantId: v.string(), Settings: customerSettingsFlagsSchema });
export type CustomerSettings = v.InferOutput<typeof customerSettingsSchema>;

/**
 * PUT /api/v1/customer/settings/update?customerId= — body { customerEtag, settings } with every
 * flag (PascalCase as get-settings answers them). Answer: the settings as stored, with the new
 * CustomerEtag (auto-generate is stored off while Alarm Report Intelligence is off).
 */
export const settingsUpdateQuery = v.object({ customerId });
export const settingsUpdateBody = v.object(
  {
    customerEtag: etag,
    settings: v.object(
      {
        IsAutomaticEmailsPaused: flag,
        AllowDeviceSubscriptionChanges: flag,
        EnableDiscreetAlarmApp: flag,
        EnableFallDetectionApp: flag,
        EnableSmsActivityConfirmation: flag,
        EnableAlarmReportIntelligence: flag,
        AutoGenerateAlarmIntelligence: flag,
      },
      CUSTOMER_TEXT.payloadMissing,
    ),
  },
  CUSTOMER_TEXT.payloadMissing,
);
export type SettingsUpdateBody = v.InferOutput<typeof settingsUpdateBody>;
export type SettingsUpdateInput = v.InferInput<typeof settingsUpdateBody>;

// ---------------------------------------------------------------- administrators

export const ADMIN_ORDER_BY = ['UserName', 'FirstName', 'LastName', 'Email'] as const;
/**
 * GET ps-admin/persons/get-customer-admin-list ?Page&PageSize&Desc&OrderBy&TenantId — the persons
 * of the customer's tenant holding the admin role. OrderBy UserName (= e-mail, the sign-in name;
 * default) , FirstName, LastName or Email; Desc defaults to true (spec §9).
 */
export const customerAdminListQuery = v.object({
  Page: qsInt(1, 1, MAX_PAGE, pageMessage),
  PageSize: v.pipe(
    qsInt(ADMIN_PAGE_SIZE, 1, 100, pageSizeMessage, PAGE_SIZES),
    v.check((n) => (PAGE_SIZES as readonly number[]).includes(n), pageSizeMessage),
  ),
  Desc: qsBool(true, 'Desc must be true or false.'),
  OrderBy: qsChoice(ADMIN_ORDER_BY, 'UserName', `OrderBy must be one of ${ADMIN_ORDER_BY.join(', ')}.`),
  TenantId: guid(CUSTOMER_TEXT.invalidTenant),
});
export type CustomerAdminListQuery = v.InferOutput<typeof customerAdminListQuery>;
export const customerAdminSchema = v.strictObject({ Id: v.string(), FirstName: v.string(), LastName: v.string(), Email: v.string() });
export type CustomerAdmin = v.InferOutput<typeof customerAdminSchema>;
export const customerAdminListSchema = pagedListSchema(customerAdminSchema);
export type CustomerAdminList = v.InferOutput<typeof customerAdminListSchema>;
// Adding an administrator is POST /api/v1/person with the header tenant-id: {customer TenantId} and
// body { person: { firstName, lastName, emailAddress, roleIds: [Roles.SuperAdminRole.Id,
// Roles.PortalUserRole.Id] } } (the dictionaries' admin and portal user roles). For a customer
// tenant the server also queues a set-password e-mail (held while the customer's e-mails are paused).

// ---------------------------------------------------------------- e-mail backlog

/** GET ps-admin/emails/get-backlog-count?TenantId= → { count }: the customer's e-mails held while delivery is paused. */
export const emailBacklogQuery = v.object({ TenantId: guid(CUSTOMER_TEXT.invalidTenant) });
export const emailBacklogSchema = v.strictObject({ count: v.number() });
export type EmailBacklog = v.InferOutput<typeof emailBacklogSchema>;

// ---------------------------------------------------------------- CRM

/** POST /api/v1/salesforce/account/query { query } — CRM accounts whose name or URN contains the text (at most CRM_RESULT_LIMIT). */
export const crmQueryBody = v.object(
  {
    query: v.pipe(
      v.optional(v.nullable(v.string(CUSTOMER_TEXT.crmQueryTooLong)), ''),
      v.transform((s) => (s ?? '').trim()),
      v.maxLength(CRM_QUERY_MAX, CUSTOMER_TEXT.crmQueryTooLong),
      v.check(noNul, CUSTOMER_TEXT.crmQueryTooLong),
    ),
  },
  CUSTOMER_TEXT.badBody,
);
/**
 * A CRM account (spec §3 "CRM account search result"). id is the CRM's account id (the customer's
 * salesforceId), urn its URN; countryId is the dictionaries' country matching `country` (null when
 * none does); customerSuccessTier is a tier value (TIER_TYPES) or null.
 */
export const crmAccountSchema = v.strictObject({
  id: v.string(),
  name: v.string(),
  urn: v.nullable(v.string()),
  streetLine1: v.nullable(v.string()),
  streetLine2: v.nullable(v.string()),
  county: v.nullable(v.string()),
  city: v.nullable(v.string()),
  postalCode: v.nullable(v.string()),
  country: v.nullable(v.string()),
  countryId: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  accountManagerFullName: v.nullable(v.string()),
  customerSuccessManagerFullName: v.nullable(v.string()),
  customerSuccessTier: v.nullable(v.number()),
});
export type CrmAccount = v.InferOutput<typeof crmAccountSchema>;
export const crmAccountsSchema = v.array(crmAccountSchema);

// ---------------------------------------------------------------- customer devices and allocation

/**
 * POST /api/v1/customer/get-device-list/{customerId} — the asset list's filter body (deviceListBody
 * of devices.ts); answer deviceListSchema where generalTotalCount counts the customer's devices.
 * POST /api/v1/customer/export/device-list/{customerId} (ours: the Devices tab's export) takes the
 * same body and answers an .xlsx of every matching device of the customer.
 */
export type CustomerDeviceListFilter = DeviceListFilter;

/**
 * POST api/v1/import/devices-to-allocate/{customerId} — multipart form, field File: a CSV with a
 * SerialNumber column (spec §5 CSV rules: 'Provided file isn't CSV format.', "CSV file doesn't
 * include SerialNumber column.", 'Failed to parse CSV file.'; empty cells skipped). Answer
 * deviceManySchema: one row per distinct serial in file order, placeholders for unknown ones; the
 * page checks the allocatable ones (isAllocatable).
 */
export const ALLOCATE_IMPORT_COLUMN = 'SerialNumber';

/**
 * POST /api/v1/device/allocate-many { devices [{ id, etag, typeValue }], customerId, orderNumber,
 * force? } — all or nothing. `force: false` asks for the quota check (422 when exceeded); true or
 * omitted (the spec's payload) allocates past the quota. Every device must be allocatable (isAllocatable) and its etag current;
 * typeValue is the type the page showed (a different stored type counts as stale). The order
 * number is optional. Allocated devices get status Allocated, the customer and the order number.
 * Answer bulkChangeResponseSchema { updated, devices [{ id, etag }] }.
 */
export const allocateManyBody = v.object(
  {
    devices: v.pipe(
      v.array(
        v.object({
          id: guid(MSG.noEligibleAllocation),
          etag: v.pipe(v.string(MSG.noEligibleAllocation), v.trim(), v.nonEmpty(MSG.noEligibleAllocation), v.maxLength(200, MSG.noEligibleAllocation)),
          typeValue: v.optional(v.nullable(v.number(CUSTOMER_TEXT.unknownDeviceType)), null),
        }),
        MSG.noEligibleAllocation,
      ),
      v.minLength(1, MSG.noEligibleAllocation),
      v.maxLength(10_000, 'At most 10000 devices can be allocated at once.'),
    ),
    customerId,
    orderNumber: v.pipe(
      v.optional(v.nullable(v.string('An order number must be text.')), null),
      v.transform((s) => (s ?? '').trim() || null),
      v.check((s) => s === null || s.length <= 64, 'An order number can be at most 64 characters long.'),
      v.check((s) => s === null || noNul(s), 'An order number must be text.'),
    ),
    force: v.optional(v.boolean('force must be true or false.')),
  },
  CUSTOMER_TEXT.badBody,
);
export type AllocateManyBody = v.InferOutput<typeof allocateManyBody>;
export type AllocateManyInput = v.InferInput<typeof allocateManyBody>;
