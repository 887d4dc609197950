// Row types of every table. Column names are camelCase in both dialects (Kysely quotes them).
// Portable types only: text, integer, real. Booleans are 0/1 integers, instants are ISO-8601
// UTC strings (they sort as text), JSON is text. Every mutable record carries an etag.
import type { Generated, Selectable, Insertable, Updateable } from 'kysely';

export interface RoleTable {
  id: string;
  name: string;
  isDefault: number;
  order: number;
}
export interface CountryTable {
  id: string;
  code: string;
  name: string;
  phoneNumberCode: string;
}
export interface LookupTable {
  kind: string;
  value: number;
  name: string;
  order: number;
}
export interface FeatureTable {
  name: string;
  isEnabled: number;
}
export interface GlobalSettingTable {
  key: string;
  value: string;
}

export interface PersonTable {
  id: string;
  tenantId: string;
  firstName: string;
  lastName: string;
  email: string; // lower-case, unique
  passwordHash: string | null;
  isLocked: number;
  failedAttempts: number;
  /** End of a lockout after failed sign-ins; null with isLocked = 1: locked until unlocked. */
  lockedUntil: Generated<string | null>;
  /** Access tokens carry it; a bump ends the access tokens issued before (password, roles, logout). */
  sessionEpoch: Generated<number>;
  lastLoginDate: string | null;
  personStatus: number; // 1 Active, 2 Inactive
  loginMethod: number; // 1 Password, 2 SingleSignOn
  twoFactorType: number | null; // 1 Email, 2 SMS
  twoFactorPhone: string | null; // JSON {countryId, number, type}
  phoneNumbers: string; // JSON [{CountryCode, Number, IsPrimary, Type}]
  profile: string; // JSON: full person profile (title, job, vehicle, personal, medical, physical)
  searchText: string; // lower-case "first last email" for search
  etag: string;
  createdAt: string;
  updatedAt: string;
  /** sso: the identity-provider e-mail when it is not `email` (one identity, several accounts). */
  ssoEmail: Generated<string | null>;
}
export interface PersonRoleTable {
  personId: string;
  roleId: string;
}

export interface CustomerTable {
  id: string;
  tenantId: string;
  name: string;
  portalId: string | null; // portal reference number
  phoneNumber: string | null;
  tier: number | null;
  status: number | null;
  isMigratedAccount: number;
  salesforceId: string | null;
  salesforceUrn: string | null;
  isSalesforceAccount: number;
  accountManagerFullName: string | null;
  customerSuccessManagerFullName: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  county: string | null;
  postCode: string | null;
  countryId: string | null;
  // settings
  isAutomaticEmailsPaused: number;
  allowDeviceSubscriptionChanges: number;
  enableDiscreetAlarmApp: number;
  enableFallDetectionApp: number;
  enableSmsActivityConfirmation: number;
  enableAlarmReportIntelligence: number;
  autoGenerateAlarmIntelligence: number;
  // additional services
  nationalResponse: number;
  globalResponse: number;
  eurowatch: number;
  translationServices: number;
  checkInTimers: number;
  teamBroadcast: number;
  // app features
  isWelfareCheckEnabled: number;
  isFallDetectionEnabled: number;
  isTravelSafeEnabled: number;
  isTrackingEnabled: number;
  isSureCamEnabled: number;
  trackingInterval: number;
  isSosDisabled: number;
  etag: string;
  deviceSubscriptionsEtag: string;
  appSubscriptionsEtag: string;
  createdAt: string;
  updatedAt: string;
}
export interface DeviceSubscriptionTable {
  customerId: string;
  deviceType: number;
  purchased: number;
}
export interface AppSubscriptionTable {
  customerId: string;
  appSubscriptionType: number;
  purchased: number;
}

export interface DeviceTable {
  id: string;
  serialNumber: string;
  imei: string | null;
  imsi: string | null;
  type: number;
  phoneNumber: string | null;
  simPhoneNumber: string | null;
  simSerial: string | null;
  simTypeId: number | null;
  simStatus: string | null;
  supplier: string | null;
  status: number;
  customerId: string | null;
  orderNumber: string | null;
  isUserAssigned: number;
  assignedPersonId: string | null;
  firmwareVersion: string | null;
  lastConfigurationDate: string | null;
  dateReceived: string | null;
  lastUpdated: string;
  addedToSystem: string;
  etag: string;
  /** The Customer sort's key: the customer's name, kept by triggers (migration 020); never written by the code. */
  customerSortName?: string | null;
}

/**
 * The devices table's columns the code writes (all but the trigger-kept customerSortName), in the
 * order the demo generator and the device benchmark write their values. The device DTO reads
 * these but assignedPersonId (modules/devices/repo.ts), the seed writes them all.
 */
export const DEVICE_COLUMNS = [
  'id',
  'serialNumber',
  'imei',
  'imsi',
  'type',
  'phoneNumber',
  'simPhoneNumber',
  'simSerial',
  'simTypeId',
  'simStatus',
  'supplier',
  'status',
  'customerId',
  'orderNumber',
  'isUserAssigned',
  'assignedPersonId',
  'firmwareVersion',
  'lastConfigurationDate',
  'dateReceived',
  'lastUpdated',
  'addedToSystem',
  'etag',
] as const satisfies readonly (keyof DeviceTable)[];
export type DeviceColumn = (typeof DEVICE_COLUMNS)[number];
/** Does not compile while a column of DeviceTable is missing from DEVICE_COLUMNS. */
type NoneMissing<T extends never> = T;
export type DeviceColumnsComplete = NoneMissing<Exclude<keyof DeviceTable, DeviceColumn | 'customerSortName'>>;

export interface DeviceConfigurationTable {
  deviceId: string;
  isConnected: number;
  lastUpdated: string | null;
  isTracking: number;
  trackingSeconds: number | null;
  isFallDetection: number;
  fallDetectionSettings: string | null; // "sss-uuu-nnn"
  firmwareVersion: string | null;
  sosButton: number;
  call1Type: number | null;
  call1Number: string | null;
  call2Type: number | null;
  call2Number: string | null;
  primaryEndPoint: string | null;
  secondaryEndPoint: string | null;
  smsBackup: number;
  etag: string;
}

export interface DesiredConfigurationTable {
  id: string;
  deviceId: string;
  payload: string; // JSON of the configuration change payload
  requestedBy: string | null;
  requestedAt: string;
  appliedAt: string | null;
  /** 'configuration' | 'refresh-configuration' | 'refresh-firmware' (migration 010) */
  kind: Generated<string>;
  /** when the gateway handed it to the device */
  sentAt: Generated<string | null>;
}

export interface DeviceMessageTable {
  id: string;
  deviceId: string;
  deviceIdentity: string; // IMEI
  serial: string;
  deviceType: number;
  date: string;
  message: string;
  signal: number | null;
  battery: number | null;
  properties: string; // JSON map
  rawMessage: string;
  /** when the server received it (migration 010; null for demo history) */
  receivedAt: Generated<string | null>;
  /** JSON {latitude, longitude, accuracy} or null */
  location: Generated<string | null>;
}

/** Each device's latest message and connection state (migration 010). */
export interface DeviceLastMessageTable {
  deviceId: string;
  deviceIdentity: string;
  messageId: string;
  date: string;
  message: string;
  battery: number | null;
  signal: number | null;
  /** 0 after 'Power off'; the device also counts as disconnected when receivedAt is over 10 minutes old */
  isConnected: number;
  receivedAt: string;
}

/** Bucket counts of alarm reports per London closed day and grain (migration 013, modules/alarm-reports/aggregates.ts). */
/**
 * The management report's monthly tops (migration 021, modules/alarm-reports/month-tops.ts): per
 * London month ('YYYY-MM') and customer ('' none, '*' every customer for persons and devices), the
 * alarm count of each person (kind 1), device (2) and plan outcome (3); kept by triggers, never
 * written by the code.
 */
export interface AlarmMonthTopsTable {
  month: string;
  customerId: string;
  kind: number;
  key: string;
  label: string;
  code: number;
  n: number | string; // bigint on PostgreSQL
}
export interface AlarmStatsTable {
  grain: number;
  day: string;
  verificationType: number;
  verificationCategory: number;
  alarmType: number;
  tier: number;
  deviceType: number;
  arcControllerId: string;
  /** all; s0… the Verification Started bands; c0… the Verification Completed bands */
  n: number;
  s0: number;
  s1: number;
  s2: number;
  c0: number;
  c1: number;
  c2: number;
  c3: number;
}

/** The reports' distinct lower-cased person and account names with their report counts (migration 022, modules/alarm-reports/names.ts). */
export interface AlarmReportNameTable {
  kind: 'person' | 'account';
  key: string;
  n: number;
}

export interface AlarmReportTable {
  id: string;
  alarmId: string;
  customerId: string | null;
  customerAccountFullName: string;
  tier: number | null;
  alarmType: number;
  verificationType: number;
  verificationCategory: number;
  personId: string | null;
  personFullName: string;
  deviceType: number | null;
  deviceSerial: string | null;
  arcControllerId: string | null;
  arcControllerFullName: string | null;
  alarmStarted: string;
  alarmClosed: string;
  verificationStartedSeconds: number;
  verificationCompletedSeconds: number;
  escalationPlanFollowed: number;
  incomingCallPhoneNumber: string | null;
  location: string; // JSON {GoogleApiAddress, W3WAddress, Latitude, Longitude, GpsGenerated}
  profileSnapshot: string; // JSON, the full profile snapshot
  etag: string;
}
export interface AlarmCallTable {
  id: string;
  alarmReportId: string;
  startTime: string;
  endTime: string;
  duration: number;
  line: string;
  number: string;
  participants: string; // JSON [{FullName}]
  alarmCall: number;
  conferenceName: string | null;
  records: string; // JSON [{SId, Unavailable, Reason}]
}
export interface AlarmMemoTable {
  id: string;
  alarmReportId: string;
  startDate: string;
  durationInMinutes: number;
  displayName: string;
  textMemo: string | null;
  voiceMemoId: string | null;
}
export interface ActivityJournalTable {
  id: string;
  alarmReportId: string;
  date: string;
  creator: string;
  details: string;
  customProperties: string; // JSON string, one of the CustomProperties kinds
}
export interface AlarmNoteTable {
  id: string;
  alarmReportId: string;
  note: string;
  createdDate: string;
  personId: string | null;
  personFullName: string;
  personRoles: string; // JSON string[]
}
/** The stored Analysis section of a closed alarm report (alarm report intelligence). */
export interface AlarmReportAnalysisTable {
  alarmReportId: string;
  analysis: string; // JSON AlarmAnalysis
  generatedAt: string;
  generatedBy: string | null;
}
/** Demo audio: call recordings and voice memos are served from these clips. */
export interface AlarmAudioClipTable {
  id: string; // 'call-0', 'memo-0', ...
  kind: string; // 'call' | 'memo'
  mime: string;
  bytes: Uint8Array;
}

export interface RefreshTokenTable {
  id: string;
  personId: string;
  familyId: string;
  tokenHash: string;
  clientId: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
  revokedAt: string | null;
}
export interface VerificationCodeTable {
  id: string;
  personId: string;
  codeHash: string;
  createdAt: string;
  expiresAt: string;
  consumedAt: string | null;
}
export interface OutboxTable {
  id: Generated<number>;
  channel: string; // 'email' | 'sms'
  recipient: string;
  subject: string;
  body: string;
  createdAt: string;
  sentAt: string | null;
  error: string | null;
  attempts: Generated<number>;
  /** Set while a relay sends the row (one sender per row across nodes). */
  claimedAt: Generated<string | null>;
  /** Set while the recipient's customer pauses e-mail delivery (009): the relay skips the row until it is cleared. */
  heldTenantId: Generated<string | null>;
  /** A file sent with the e-mail (015): outboxAttachments.id. */
  attachmentId: Generated<number | null>;
  /** What the message belongs to (015), e.g. 'scheduleRun:12': its outcome is read from here. */
  ref: Generated<string | null>;
}
/** Files sent with outbox e-mails (015); the e-mails of one scheduled run share one row. */
export interface OutboxAttachmentTable {
  id: Generated<number>;
  fileName: string;
  contentType: string;
  content: Uint8Array;
  createdAt: string;
}
/** A scheduled report (015): saved alarm-list filters, when they run (London time), who receives them. */
export interface ReportScheduleTable {
  id: string;
  name: string;
  ownerId: string;
  /** The customer whose report this is (its e-mail pause holds the report), else null. */
  customerId: string | null;
  frequency: string; // ScheduleFrequency
  dayOfWeek: number | null;
  dayOfMonth: number | null;
  timeOfDay: string; // 'HH:mm'
  recipients: string; // JSON string[]
  format: string; // ScheduleFormat
  /** What is sent: ScheduleReport ('alarmList' or 'managementReport'; migration 021). */
  report: Generated<string>;
  filters: string; // JSON AlarmReportFilterBody
  paused: Generated<number>;
  /** The next due instant (ISO); the claim a node changes to run it. */
  nextDueAt: string;
  claimedBy: string | null;
  claimedAt: string | null;
  etag: string;
  createdAt: string;
  updatedAt: string;
}
/** One run of a scheduled report (015). */
export interface ReportScheduleRunTable {
  id: Generated<number>;
  scheduleId: string;
  dueAt: string;
  periodFrom: string;
  periodTo: string;
  missed: Generated<number>;
  /** 'running' | 'queued' (its e-mails are in the outbox) | 'failed' */
  state: string;
  rows: number | null;
  error: string | null;
  attempts: Generated<number>;
  claimedBy: string;
  startedAt: string;
  finishedAt: string | null;
  /** until when claimedBy holds the run (renewed while it builds); a 'running' run past it is taken over (028) */
  leaseUntil: string | null;
}
/** The embedded CRM directory (009): the accounts POST /api/v1/salesforce/account/query finds without Salesforce. */
export interface CrmAccountTable {
  id: string;
  name: string;
  urn: string | null;
  streetLine1: string | null;
  streetLine2: string | null;
  county: string | null;
  city: string | null;
  postalCode: string | null;
  country: string | null;
  phone: string | null;
  accountManagerFullName: string | null;
  customerSuccessManagerFullName: string | null;
  customerSuccessTier: number | null;
  /** lower-cased name, for the prefix and substring search */
  searchName: string;
}
export interface AuditLogTable {
  id: Generated<number>;
  at: string;
  actorId: string | null;
  action: string;
  entity: string;
  entityId: string | null;
  details: string; // JSON
}

// sso
/** Companies (by e-mail domain) that require single sign-on. */
export interface SsoDomainTable {
  domain: string;
  enforced: Generated<number>;
  /** The customer (company) the domain belongs to; null for provider staff. */
  customerId: Generated<string | null>;
}
/** Nonces of ID tokens that produced a session (an ID token signs in once). */
export interface SsoNonceTable {
  nonceHash: string;
  personId: string;
  expiresAt: string;
}

/** Devices per (type, status, isUserAssigned, configured): kept by triggers (migration 014) for the asset list's exact counts. */
export interface DeviceCountTable {
  type: number;
  status: number;
  isUserAssigned: number;
  /** 1: lastConfigurationDate is set */
  configured: number;
  n: number;
}

/** Customers per (tier, status, isMigratedAccount), kept by migration 038's triggers; a missing tier or status is 0. */
export interface CustomerCountTable {
  tier: number;
  status: number;
  isMigratedAccount: number;
  n: number;
}

/** How many persons there are: one row (key 1), kept by migration 038's triggers. */
export interface PersonTotalTable {
  key: number;
  n: number;
}

/**
 * Per device and Europe/London day ('YYYY-MM-DD'): its messages of that day (migration 030), kept by
 * ingestion in the transaction that stores them (modules/live/daily-usage.ts).
 */
export interface DeviceDailyUsageTable {
  deviceId: string;
  day: string;
  firstMessageAt: string;
  lastMessageAt: string;
  messages: number;
  heartbeats: number;
  locations: number;
  checkIns: number;
  lowBatteries: number;
  powerOns: number;
  powerOffs: number;
  chargings: number;
  sosAlarms: number;
  falls: number;
  configurationAcks: number;
  minBattery: number | null;
  /** 1: a message of the day arrived while a configuration change waited for the device */
  configPending: number;
}

/** Fleet health thresholds (migration 030): scope '' the provider's, else a customer id (null: the provider's value). */
export interface FleetThresholdTable {
  scope: string;
  silentHours: number | null;
  lowBattery: number | null;
  notChargedDays: number | null;
  unusedDays: number | null;
  configHours: number | null;
  updatedAt: string;
}

/** The newest firmware version reported for each device type (migration 030). */
export interface DeviceTypeFirmwareTable {
  type: number;
  newestVersion: string;
}

/** Fleet Health's facts of an allocated device, kept by triggers (migration 032; modules/fleet/conditions.ts). */
export interface DeviceFleetStateTable {
  deviceId: string;
  customerId: string;
  type: number;
  firmwareVersion: string | null;
  /** the device's serial number (a Fleet Health drill-down's page order) */
  serialNumber: string;
  /** the last message's date, '' when none */
  lastMessageAt: string;
  lastMessage: string | null;
  lastBattery: number | null;
  /** the newest London day with a charge, '' when none */
  lastChargedDay: string;
  /** the newest London day with a check-in or power-on, '' when none */
  lastUsedDay: string;
  /** the oldest configuration change not acknowledged */
  configPendingSince: string | null;
  firmwareBehind: number;
}

export interface Database {
  deviceCounts: DeviceCountTable;
  customerCounts: CustomerCountTable;
  personTotals: PersonTotalTable;
  roles: RoleTable;
  countries: CountryTable;
  lookups: LookupTable;
  features: FeatureTable;
  globalSettings: GlobalSettingTable;
  persons: PersonTable;
  personRoles: PersonRoleTable;
  customers: CustomerTable;
  deviceSubscriptions: DeviceSubscriptionTable;
  appSubscriptions: AppSubscriptionTable;
  devices: DeviceTable;
  deviceConfigurations: DeviceConfigurationTable;
  desiredConfigurations: DesiredConfigurationTable;
  deviceMessages: DeviceMessageTable;
  deviceLastMessages: DeviceLastMessageTable;
  deviceDailyUsage: DeviceDailyUsageTable;
  fleetThresholds: FleetThresholdTable;
  deviceTypeFirmware: DeviceTypeFirmwareTable;
  deviceFleetState: DeviceFleetStateTable;
  alarmReports: AlarmReportTable;
  alarmStats: AlarmStatsTable;
  alarmMonthTops: AlarmMonthTopsTable;
  alarmReportNames: AlarmReportNameTable;
  alarmCalls: AlarmCallTable;
  alarmMemos: AlarmMemoTable;
  activityJournal: ActivityJournalTable;
  alarmNotes: AlarmNoteTable;
  alarmReportAnalyses: AlarmReportAnalysisTable;
  alarmAudioClips: AlarmAudioClipTable;
  refreshTokens: RefreshTokenTable;
  verificationCodes: VerificationCodeTable;
  outbox: OutboxTable;
  outboxAttachments: OutboxAttachmentTable;
  reportSchedules: ReportScheduleTable;
  reportScheduleRuns: ReportScheduleRunTable;
  auditLog: AuditLogTable;
  ssoDomains: SsoDomainTable; // sso
  ssoNonces: SsoNonceTable; // sso
  crmAccounts: CrmAccountTable;
}

export type Person = Selectable<PersonTable>;
export type NewPerson = Insertable<PersonTable>;
export type PersonUpdate = Updateable<PersonTable>;
export type Customer = Selectable<CustomerTable>;
export type Device = Selectable<DeviceTable>;
export type AlarmReport = Selectable<AlarmReportTable>;
