// Live devices (spec document 2: device detail Configuration and Message Stream, the three bulk
// management tabs, §3 configuration entities and fall-detection presets, §4 live updates, §5
// configuration-change validation, §7 "Device configuration requests" and "Devices data
// service"): THE CONTRACT between the live server (src/server/modules/live, src/server/realtime)
// and the device tab's live parts, the Configure & Test Devices tabs and the hub client
// (src/app/api/live.ts).
//
// What the client must know besides the shapes below:
// - A device's identity (DeviceIdentity, the hub group name, the message stream key) is its IMEI,
//   or its serial number when it has no IMEI (eSIM units). `deviceIdentityOf(device)`.
// - Live updates: POST /api/admin/negotiate?userid= → { Url, AccessToken }; the official
//   @microsoft/signalr client connects to Url with AccessToken (WebSockets, JSON hub protocol),
//   then subscribes device identities with POST /devices/subscribe-for-monitoring
//   { connectionId, deviceIdentities } or the hub method `joinGroup(identities)` (both answer
//   { Subscribed, Refused }: refused = unknown or another tenant's device). Events (HUB_EVENTS)
//   reach only connections subscribed to that device. The hub closes the connection when its
//   AccessToken expires (the client negotiates again). Subscriptions live as long as the
//   connection: after a reconnect the client joins again and refetches what it missed.
// - Configuration: `LastUpdated` null means 'Configuration not known'. Refresh Configuration /
//   Refresh firmware queue a request the device answers when it next reports; until then
//   `RefreshRequestedAt` / `FirmwareRequestedAt` are set (the tab shows 'Pending').
// - Desired configuration (Change Configuration): queued per device and handed to the device by
//   the gateway when it powers on; the device reports it applied, which updates the current
//   configuration and fires DeviceConfigurationUpdated.
// - Ingestion (gateways, not the browser): POST /api/v1/device-messages/ingest with X-Gateway-Key.
//   Each entry is stored or refused on its own; see ingestResponseSchema.
import * as v from 'valibot';
import { MSG } from '../messages.js';
import { normalisePhone, phoneMessage } from '../phone.js';
import { CAPABILITY, DEVICE_CAPABILITIES, DEVICE_TYPES } from '../codes.js';
import { bodySearch, inputJson, noNul, pagedListSchema, pageSizeMessage, pagingBody } from './common.js';
import { lookupSchema } from './reference.js';

// ---------------------------------------------------------------- constants

/** Where the hub listens (the negotiate answer's Url ends with it). */
export const HUB_PATH = '/hub/devices';
/** Server → client events (spec §4 hub names). */
export const HUB_EVENTS = ['MessageStream', 'DeviceMonitoring', 'DeviceConnected', 'DeviceConfigurationUpdated'] as const;
export type HubEventName = (typeof HUB_EVENTS)[number];
/** Client → server hub methods: joinGroup(identity | identities), subscribe(identities) (same), leaveGroup(identity | identities). */
export const HUB_METHODS = { joinGroup: 'joinGroup', subscribe: 'subscribe', leaveGroup: 'leaveGroup' } as const;
/** Spec §9: the live subscription is re-sent every 600000 ms. */
export const LIVE_SUBSCRIPTION_REFRESH_MS = 600_000;
/** The hub pings every 15 s; a client silent for 30 s is dropped. */
export const HUB_PING_MS = 15_000;
export const HUB_CLIENT_TIMEOUT_MS = 30_000;
/** A device counts as connected when its last message is at most this old and was not 'Power off'. */
export const CONNECTED_WINDOW_SECONDS = 600;
/** Message stream page; spec §9: 'Load more' shows at 10 or more messages with a continuation token. */
export const MESSAGE_STREAM_PAGE = 20;
export const MESSAGE_STREAM_MAX_PAGE = 100;
export const LOAD_MORE_MIN = 10;
/** Spec §5 tracking interval options (minutes), default 15, at least 5. */
export const TRACKING_INTERVALS = [5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 300, 360] as const;
export const DEFAULT_TRACKING_INTERVAL = 15;
export const MIN_TRACKING_INTERVAL = 5;
export const MAX_TRACKING_INTERVAL = 360;
/** Spec §9: custom fall-detection values 0 to 254. */
export const FALL_VALUE_MIN = 0;
export const FALL_VALUE_MAX = 254;
/** Most devices one configuration change, list or subscription names. */
export const LIVE_MAX_DEVICES = 10_000;
/** Ingestion: most messages per request (the body limit is 20 MB). */
export const INGEST_MAX_BATCH = 50_000;
export const GATEWAY_KEY_HEADER = 'X-Gateway-Key';
/** Ingestion: a message dated more than this after the server's clock is refused (its own result). */
export const INGEST_MAX_FUTURE_SECONDS = 300;

/** Call button types (ours; the spec says "EnumValues with Value and PhoneNumber"). Custom needs a number. */
export const CALL_BUTTON = { Arc: 1, Custom: 2, Disabled: 3 } as const;
export const ARC_PHONE_NUMBER = '+443301234567';
export const CALL_BUTTON_TYPES = [
  { Value: CALL_BUTTON.Arc, Name: 'Alarm Receiving Centre', PhoneNumber: ARC_PHONE_NUMBER, IsPreferred: true, IsCustom: false },
  { Value: CALL_BUTTON.Custom, Name: 'Custom number', PhoneNumber: null, IsPreferred: false, IsCustom: true },
  { Value: CALL_BUTTON.Disabled, Name: 'Disabled', PhoneNumber: null, IsPreferred: false, IsCustom: false },
] as const;
export const callButtonName = (value: number | null | undefined) => CALL_BUTTON_TYPES.find((t) => t.Value === value)?.Name ?? null;

/** Raw command delivery methods (spec §5). */
export const COMMUNICATION_PROTOCOLS = ['SMS', 'TCP'] as const;
export type CommunicationProtocol = (typeof COMMUNICATION_PROTOCOLS)[number];

/** The message texts devices (and the simulator) send; 'Power on' is when queued configuration goes out. */
export const DEVICE_MESSAGE = {
  heartbeat: 'Heartbeat',
  location: 'Location update',
  checkIn: 'Check-in',
  lowBattery: 'Low battery',
  powerOn: 'Power on',
  powerOff: 'Power off',
  charging: 'Charging started',
  sos: 'SOS alarm',
  fall: 'Fall detected',
  configuration: 'Configuration acknowledged',
} as const;

// ---------------------------------------------------------------- fall-detection presets (spec §3)

export type FallPreset = { Name: string; Value: string };
/** The four newer firmware versions (the spec does not name them; ours, as the demo data has them). */
export const NEWER_FIRMWARE_VERSIONS: readonly string[] = ['5.0.2', '5.1.0', '5.1.4', '5.2.0'];
export const FALL_PRESETS_DEFAULT: readonly FallPreset[] = [
  { Name: 'Low (ID140)', Value: '025-170-200' },
  { Name: 'Default (SG621/640/750)', Value: '030-150-200' },
  { Name: 'MicroGuard Only (MG370)', Value: '040-025-200' },
  { Name: 'Retired Only (SG620/740)', Value: '040-060-150' },
];
export const FALL_PRESETS_NEWER: readonly FallPreset[] = [
  { Name: 'Low', Value: '044-026-020' },
  { Name: 'Default', Value: '042-028-020' },
  { Name: 'High', Value: '040-030-020' },
];
/** The free-entry option (default firmware set only). */
export const FALL_PRESET_CUSTOM = 'Custom';
/** Label of settings that match no preset of the firmware version. */
export const FALL_PRESET_FALLBACK = 'Custom settings';
export const isNewerFirmware = (firmware: string | null | undefined) => !!firmware && NEWER_FIRMWARE_VERSIONS.includes(firmware);
/** The presets offered for a firmware version (spec §3). Custom is offered besides these for the default set. */
export const fallPresetsFor = (firmware: string | null | undefined): readonly FallPreset[] =>
  isNewerFirmware(firmware) ? FALL_PRESETS_NEWER : FALL_PRESETS_DEFAULT;
/** "sss-uuu-nnn" from the three numbers (each three digits). */
export const fallSettingsOf = (sensitivity: number, upTime: number, nonMovementDuration: number) =>
  [sensitivity, upTime, nonMovementDuration].map((n) => String(n).padStart(3, '0')).join('-');
/** The three numbers of "sss-uuu-nnn", or null. */
export function parseFallSettings(s: string | null | undefined): [number, number, number] | null {
  const m = /^(\d{1,3})-(\d{1,3})-(\d{1,3})$/.exec(s ?? '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}
/** Spec §3: the named option of the firmware version the settings match, else the fallback label. */
export function fallPresetName(settings: string | null | undefined, firmware: string | null | undefined): string {
  const p = parseFallSettings(settings);
  if (!p) return FALL_PRESET_FALLBACK;
  const norm = fallSettingsOf(...p);
  return fallPresetsFor(firmware).find((x) => x.Value === norm)?.Name ?? FALL_PRESET_FALLBACK;
}

/** Whether a device type supports configuration changes (capability ChangeConfiguration). */
export const isConfigurableType = (type: number) => ((DEVICE_CAPABILITIES[type] ?? 0) & CAPABILITY.ChangeConfiguration) !== 0;
/** A device's identity on the live side: its IMEI, else its serial number. */
export const deviceIdentityOf = (d: { imei: string | null; serialNumber: string }) => d.imei || d.serialNumber;
/** Spec §3 / bulk tab: tracking 'On - N minutes' (seconds / 60). */
export const trackingLabel = (isTracking: boolean | null, seconds: number | null) =>
  isTracking == null ? '-' : isTracking ? `On - ${Math.round((seconds ?? 0) / 60)} minutes` : 'Off';

// ---------------------------------------------------------------- messages and codes

/** Server-side messages the spec does not quote. */
export const LIVE_TEXT = {
  badBody: 'The request body must be a JSON object.',
  identityRequired: 'Please enter a device identity.',
  identityTooLong: 'A device identity can be at most 64 characters long.',
  serialRequired: MSG.serialRequired,
  tooManyDevices: `At most ${LIVE_MAX_DEVICES} devices can be sent at once.`,
  noDevices: MSG.selectOneDevice,
  connectionIdRequired: 'The connection id is missing.',
  unknownConnection: 'This live connection does not exist (any more). Reconnect and try again.',
  userMismatch: 'userid must be the signed-in user.',
  badContinuationToken: 'The continuation token is not valid.',
  badDate: 'The date must be an ISO-8601 date and time.',
  messageNotFound: 'This message does not exist.',
  unknownType: 'Unknown device type.',
  trackingInterval: MSG.atLeast5,
  trackingIntervalMax: `Should be at most ${MAX_TRACKING_INTERVAL}.`,
  fallRange: `Fall detection values must be numbers from ${FALL_VALUE_MIN} to ${FALL_VALUE_MAX}.`,
  callNumberRequired: 'Please enter the phone number for the custom call button.',
  callNumberInvalid: phoneMessage(),
  unknownCallButton: 'Unknown call button type.',
  sameFirmware: 'Fall detection can only be changed when all selected devices have the same firmware version; select similar devices.',
  gatewayKey: 'The gateway key (X-Gateway-Key) is missing or not valid.',
  notArray: 'The request body must be a JSON array of device messages.',
  batchTooLarge: `At most ${INGEST_MAX_BATCH} messages can be sent at once.`,
  emptyBatch: 'The batch holds no messages.',
  noneStored: 'No message of the batch was stored; see Results.',
  unknownDevice: 'No device has this identity.',
  duplicate: 'Already stored (same messageId).',
  typeMismatch: "deviceType is not the device's type.",
  futureDate: `The message date is more than ${INGEST_MAX_FUTURE_SECONDS / 60} minutes in the future.`,
  tooManyBatches: 'This gateway sends too many batches; wait and send again.',
  propertiesTooLarge: 'properties can be at most 16 KB of JSON.',
  stored: 'Stored.',
} as const;

export const LIVE_CODE = {
  gatewayKey: 'gateway_key_invalid',
  duplicate: 'duplicate_message',
  unknownConnection: 'hub_connection_unknown',
  notConfigurable: 'device_not_configurable',
  typeMismatch: 'device_type_mismatch',
  futureDate: 'message_date_in_future',
} as const;

// ---------------------------------------------------------------- building blocks

const devTypeValues = DEVICE_TYPES.map((t) => t.Value);
const text = (required: string, max: number, tooLong: string) =>
  v.pipe(v.string(required), v.trim(), v.nonEmpty(required), v.maxLength(max, tooLong), v.check(noNul, required));
const identity = text(LIVE_TEXT.identityRequired, 64, LIVE_TEXT.identityTooLong);
const serial = text(LIVE_TEXT.serialRequired, 64, 'A serial number can be at most 64 characters long.');
/**
 * Whether an ISO-8601 date and time names a real calendar moment: month 1–12, a day the month has
 * (leap years included), hour < 24, minute and second < 60. Date.parse alone rolls 2026-02-30
 * over to 03-02.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/;
export function isCalendarDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  if (!m || Number.isNaN(Date.parse(s))) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const sec = m[6] === undefined ? 0 : Number(m[6]);
  if (mo < 1 || mo > 12 || d < 1 || Number(m[4]) >= 24 || Number(m[5]) >= 60 || sec >= 60) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}
/** Already the form toISOString gives (a gateway's usual form): kept as it is. */
const CANONICAL_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const isoDate = v.pipe(
  v.string(LIVE_TEXT.badDate),
  inputJson({ type: 'string', format: 'date-time' }),
  v.trim(),
  v.check(isCalendarDateTime, LIVE_TEXT.badDate),
  v.transform((s) => (CANONICAL_UTC.test(s) ? s : new Date(s).toISOString())),
);
const { page, pageSize } = pagingBody;
const numberList = (values: readonly number[], message: string) =>
  v.optional(
    v.pipe(
      v.nullable(v.array(v.pipe(v.picklist(values as number[], message)), message)),
      v.transform((a) => a ?? []),
    ),
    [],
  );
const optionalBool = (message: string) => v.optional(v.nullable(v.boolean(message)), null);
const searchText = bodySearch;
const identityList = v.pipe(v.array(identity, LIVE_TEXT.noDevices), v.maxLength(LIVE_MAX_DEVICES, LIVE_TEXT.tooManyDevices));
const serialList = v.pipe(v.array(serial, LIVE_TEXT.noDevices), v.maxLength(LIVE_MAX_DEVICES, LIVE_TEXT.tooManyDevices));

const deviceTypeSchema = v.strictObject({ Id: v.number(), Name: v.string() });
const locationSchema = v.strictObject({ Latitude: v.number(), Longitude: v.number(), Accuracy: v.nullable(v.number()) });

// ---------------------------------------------------------------- device configuration (read)

/** GET ps-admin/devices/get-configuration?Serial= and get-configuration-by-id?Id= (spec §3 "Device configuration (read)"). */
export const deviceConfigurationSchema = v.strictObject({
  /** The device id (the entity id DeviceConfigurationUpdated names). */
  Id: v.string(),
  Serial: v.string(),
  DeviceIdentity: v.string(),
  DeviceType: deviceTypeSchema,
  IsConnected: v.strictObject({ Value: v.boolean(), Name: v.picklist(['Connected', 'Not connected']) }),
  /** null: 'Configuration not known'. */
  LastUpdated: v.nullable(v.string()),
  IsTracking: v.boolean(),
  TrackingSeconds: v.nullable(v.number()),
  IsFallDetection: v.boolean(),
  /** "sss-uuu-nnn": sensitivity, upTime, nonMovementDuration. */
  FallDetectionSettings: v.nullable(v.string()),
  FirmwareVersion: v.nullable(v.string()),
  SosButton: v.boolean(),
  Call1Type: v.nullable(lookupSchema),
  Call1Number: v.nullable(v.string()),
  Call2Type: v.nullable(lookupSchema),
  Call2Number: v.nullable(v.string()),
  PrimaryEndPoint: v.nullable(v.string()),
  SecondaryEndPoint: v.nullable(v.string()),
  SmsBackup: v.boolean(),
  /** Date of the device's last message (null: none received). */
  LastMessageDate: v.nullable(v.string()),
  /** Set while a Refresh Configuration request waits for the device ('Pending'). */
  RefreshRequestedAt: v.nullable(v.string()),
  /** Set while a Refresh firmware request waits for the device. */
  FirmwareRequestedAt: v.nullable(v.string()),
  /** Desired configurations queued and not yet applied. */
  PendingChanges: v.number(),
});
export type DeviceConfigurationDto = v.InferOutput<typeof deviceConfigurationSchema>;

export const configurationBySerialQuery = v.object({ Serial: serial });
export const configurationByIdQuery = v.object({
  Id: v.pipe(v.string('The id is not valid.'), v.trim(), v.nonEmpty('The id is not valid.'), v.maxLength(100)),
});

/** GET ps-admin/devices/get-configuration-types: the call button options, preferred types first. */
export const configurationTypesSchema = v.strictObject({
  EnumValues: v.array(v.strictObject({ ...lookupSchema.entries, PhoneNumber: v.nullable(v.string()), IsPreferred: v.boolean(), IsCustom: v.boolean() })),
});
export type ConfigurationTypes = v.InferOutput<typeof configurationTypesSchema>;

// ---------------------------------------------------------------- current configuration list (bulk tab)

export const CONFIGURATION_ORDER_BY = ['Serial', 'Type', 'Tracking', 'FallDetection', 'Call1Type', 'Call2Type', 'LastUpdated'] as const;
const callValues = CALL_BUTTON_TYPES.map((t) => t.Value);

/**
 * POST ps-admin/devices/get-configurations (and download-configurations-csv, which ignores paging):
 * the selected devices by serial, filtered. Serials that match no device are left out.
 */
export const configurationListBody = v.object(
  {
    serialNumbers: serialList,
    orderBy: v.optional(v.picklist(CONFIGURATION_ORDER_BY, `orderBy must be one of ${CONFIGURATION_ORDER_BY.join(', ')}.`), 'Serial'),
    desc: v.optional(v.boolean('desc must be true or false.'), false),
    deviceTypeIds: numberList(devTypeValues, LIVE_TEXT.unknownType),
    call1TypeIds: numberList(callValues, LIVE_TEXT.unknownCallButton),
    call2TypeIds: numberList(callValues, LIVE_TEXT.unknownCallButton),
    fallDetection: optionalBool('fallDetection must be true, false or null.'),
    tracking: optionalBool('tracking must be true, false or null.'),
    /** serial or IMEI contains (case-insensitive) */
    identifier: searchText,
    page,
    pageSize,
  },
  LIVE_TEXT.badBody,
);
export type ConfigurationListFilter = v.InferInput<typeof configurationListBody>;
export type ConfigurationListBody = v.InferOutput<typeof configurationListBody>;

export const configurationRowSchema = v.strictObject({
  Id: v.string(),
  Serial: v.string(),
  DeviceIdentity: v.string(),
  Type: lookupSchema,
  /** null (with the rest null): 'No configuration for this device'. */
  LastUpdated: v.nullable(v.string()),
  IsTracking: v.nullable(v.boolean()),
  TrackingSeconds: v.nullable(v.number()),
  IsFallDetection: v.nullable(v.boolean()),
  FallDetectionSettings: v.nullable(v.string()),
  FirmwareVersion: v.nullable(v.string()),
  Call1Type: v.nullable(lookupSchema),
  Call2Type: v.nullable(lookupSchema),
  PendingChanges: v.number(),
});
export type ConfigurationRow = v.InferOutput<typeof configurationRowSchema>;
export const configurationListSchema = pagedListSchema(configurationRowSchema);
export type ConfigurationList = v.InferOutput<typeof configurationListSchema>;

/** POST ps-admin/devices/get-firmware-versions { serials }: each known device's firmware (Change Configuration: one version for fall detection). */
export const firmwareVersionsBody = v.object({ serials: serialList }, LIVE_TEXT.badBody);
export const firmwareVersionsSchema = v.strictObject({
  Items: v.array(v.strictObject({ Serial: v.string(), Type: lookupSchema, FirmwareVersion: v.nullable(v.string()) })),
});
export type FirmwareVersions = v.InferOutput<typeof firmwareVersionsSchema>;

// ---------------------------------------------------------------- configuration change (desired configuration)

const fallValue = v.optional(
  v.nullable(
    v.pipe(
      v.number(LIVE_TEXT.fallRange),
      v.integer(LIVE_TEXT.fallRange),
      v.minValue(FALL_VALUE_MIN, LIVE_TEXT.fallRange),
      v.maxValue(FALL_VALUE_MAX, LIVE_TEXT.fallRange),
    ),
  ),
);
const callButton = v.optional(v.pipe(v.number(LIVE_TEXT.unknownCallButton), v.picklist(callValues, LIVE_TEXT.unknownCallButton)));
const customNumber = v.optional(
  v.nullable(
    v.object({
      phoneNumber: v.optional(
        v.pipe(
          v.nullable(v.string(LIVE_TEXT.callNumberInvalid)),
          // read as every phone number is (src/shared/phone.ts): '07700 900123' → '+447700900123'
          v.transform((s) => normalisePhone(s) ?? (s ?? '').replace(/[\s()-]/g, '')),
        ),
        '',
      ),
    }),
  ),
);
const rawCommand = v.object({
  rawCommand: v.pipe(
    v.string(MSG.enterCustomCommand),
    v.trim(),
    v.nonEmpty(MSG.enterCustomCommand),
    v.maxLength(500, 'A command can be at most 500 characters long.'),
    v.check(noNul, MSG.enterCustomCommand),
  ),
  communicationProtocol: v.picklist(COMMUNICATION_PROTOCOLS, MSG.selectDeliveryMethod),
});
const isPhone = (s: string) => normalisePhone(s) !== null;

/**
 * PUT /api/v1/device/desired-configuration — spec §3 "Configuration change payload". Each group is
 * present only when its 'change' box is ticked: tracking (isTrackingEnabled, trackingIntervalMinutes:
 * 5…360 when enabled, 0 otherwise), fall detection (isManDownEnabled, the three values 0…254 when
 * enabled), call 1 / call 2 (callNButton, customNNumber.phoneNumber required for the custom type),
 * rawCommands. The server adds the rules that need the devices: all known, one type, a
 * configurable type, one firmware version for fall detection.
 */
export const configurationChangeBody = v.pipe(
  v.object(
    {
      serials: v.pipe(serialList, v.minLength(1, LIVE_TEXT.noDevices)),
      isTrackingEnabled: v.optional(v.nullable(v.boolean('isTrackingEnabled must be true or false.'))),
      trackingIntervalMinutes: v.optional(v.nullable(v.pipe(v.number(LIVE_TEXT.trackingInterval), v.integer(LIVE_TEXT.trackingInterval)))),
      isManDownEnabled: v.optional(v.nullable(v.boolean('isManDownEnabled must be true or false.'))),
      manDownSensitivity: fallValue,
      manDownUpTime: fallValue,
      manDownNonMovementDuration: fallValue,
      call1Button: callButton,
      custom1Number: customNumber,
      call2Button: callButton,
      custom2Number: customNumber,
      rawCommands: v.optional(v.pipe(v.array(rawCommand, MSG.enterCustomCommand), v.maxLength(20, 'At most 20 commands can be sent at once.'))),
    },
    LIVE_TEXT.badBody,
  ),
  v.check(
    (b) => b.isTrackingEnabled != null || b.isManDownEnabled != null || b.call1Button != null || b.call2Button != null || (b.rawCommands?.length ?? 0) > 0,
    MSG.atLeastOneConfig,
  ),
  v.forward(
    v.check((b) => !b.isTrackingEnabled || (b.trackingIntervalMinutes ?? 0) >= MIN_TRACKING_INTERVAL, LIVE_TEXT.trackingInterval),
    ['trackingIntervalMinutes'],
  ),
  v.forward(
    v.check((b) => !b.isTrackingEnabled || (b.trackingIntervalMinutes ?? 0) <= MAX_TRACKING_INTERVAL, LIVE_TEXT.trackingIntervalMax),
    ['trackingIntervalMinutes'],
  ),
  v.forward(
    v.check(
      (b) => !b.isManDownEnabled || (b.manDownSensitivity != null && b.manDownUpTime != null && b.manDownNonMovementDuration != null),
      LIVE_TEXT.fallRange,
    ),
    ['manDownSensitivity'],
  ),
  v.forward(
    v.check((b) => b.call1Button !== CALL_BUTTON.Custom || !!b.custom1Number?.phoneNumber, LIVE_TEXT.callNumberRequired),
    ['custom1Number', 'phoneNumber'],
  ),
  v.forward(
    v.check((b) => b.call1Button !== CALL_BUTTON.Custom || isPhone(b.custom1Number?.phoneNumber ?? ''), LIVE_TEXT.callNumberInvalid),
    ['custom1Number', 'phoneNumber'],
  ),
  v.forward(
    v.check((b) => b.call2Button !== CALL_BUTTON.Custom || !!b.custom2Number?.phoneNumber, LIVE_TEXT.callNumberRequired),
    ['custom2Number', 'phoneNumber'],
  ),
  v.forward(
    v.check((b) => b.call2Button !== CALL_BUTTON.Custom || isPhone(b.custom2Number?.phoneNumber ?? ''), LIVE_TEXT.callNumberInvalid),
    ['custom2Number', 'phoneNumber'],
  ),
  v.forward(
    v.check((b) => {
      const seen = new Set<string>();
      for (const c of b.rawCommands ?? []) {
        const k = `${c.communicationProtocol}\u0000${c.rawCommand}`;
        if (seen.has(k)) return false;
        seen.add(k);
      }
      return true;
    }, MSG.commandExists),
    ['rawCommands'],
  ),
);
export type ConfigurationChangeInput = v.InferInput<typeof configurationChangeBody>;
export type ConfigurationChangeBody = v.InferOutput<typeof configurationChangeBody>;

/** A queued change as stored and handed to the device: the ticked groups only (no serials). */
export const configurationChangeSchema = v.strictObject({
  isTrackingEnabled: v.optional(v.boolean()),
  trackingIntervalMinutes: v.optional(v.number()),
  isManDownEnabled: v.optional(v.boolean()),
  manDownSensitivity: v.optional(v.number()),
  manDownUpTime: v.optional(v.number()),
  manDownNonMovementDuration: v.optional(v.number()),
  call1Button: v.optional(v.number()),
  custom1Number: v.optional(v.nullable(v.strictObject({ phoneNumber: v.string() }))),
  call2Button: v.optional(v.number()),
  custom2Number: v.optional(v.nullable(v.strictObject({ phoneNumber: v.string() }))),
  rawCommands: v.optional(v.array(v.strictObject({ rawCommand: v.string(), communicationProtocol: v.picklist(COMMUNICATION_PROTOCOLS) }))),
});
export type ConfigurationChange = v.InferOutput<typeof configurationChangeSchema>;

/** Success: MSG.configQueued and how many devices got the change queued. */
export const configurationChangeResponseSchema = v.strictObject({ Content: v.strictObject({ Message: v.string() }), Queued: v.number() });
export type ConfigurationChangeResponse = v.InferOutput<typeof configurationChangeResponseSchema>;

export const DESIRED_KINDS = ['configuration', 'refresh-configuration', 'refresh-firmware'] as const;
export type DesiredKind = (typeof DESIRED_KINDS)[number];

/** GET /api/v1/device/desired-configuration?serial=: the device's queue, newest first (applied ones too, last 50). */
export const desiredConfigurationQuery = v.object({ serial });
export const desiredConfigurationSchema = v.strictObject({
  Id: v.string(),
  Kind: v.picklist(DESIRED_KINDS),
  /** null for refresh requests */
  Configuration: v.nullable(configurationChangeSchema),
  RequestedAt: v.string(),
  RequestedBy: v.nullable(v.string()),
  /** when the gateway handed it to the device */
  SentAt: v.nullable(v.string()),
  /** when the device reported it applied */
  AppliedAt: v.nullable(v.string()),
});
export type DesiredConfigurationDto = v.InferOutput<typeof desiredConfigurationSchema>;
export const desiredConfigurationListSchema = v.strictObject({ Items: v.array(desiredConfigurationSchema) });
export type DesiredConfigurationList = v.InferOutput<typeof desiredConfigurationListSchema>;

/** PUT device-configuration and PUT device-configuration/firmware { serial } (a tenant header may come along; it is not needed). */
export const refreshRequestBody = v.object({ serial }, LIVE_TEXT.badBody);

// ---------------------------------------------------------------- device messages

/** One device message (spec §3 "Device message"). PartitionKey = DeviceIdentity. Time: when the server received it. */
export const deviceMessageSchema = v.strictObject({
  MessageId: v.string(),
  Message: v.string(),
  Date: v.string(),
  Signal: v.nullable(v.number()),
  Battery: v.nullable(v.number()),
  Time: v.string(),
  DeviceType: deviceTypeSchema,
  Serial: v.string(),
  DeviceIdentity: v.string(),
  PartitionKey: v.string(),
  Location: v.nullable(locationSchema),
});
export type DeviceMessageDto = v.InferOutput<typeof deviceMessageSchema>;

/** GET /devices/get-message-stream?deviceIdentity=&continuationToken=&pageSize= — newest first. */
export const messageStreamQuery = v.object({
  deviceIdentity: identity,
  continuationToken: v.optional(v.pipe(v.string(LIVE_TEXT.badContinuationToken), v.maxLength(500, LIVE_TEXT.badContinuationToken)), ''),
  pageSize: v.optional(
    v.pipe(
      v.string(pageSizeMessage),
      inputJson({ type: 'integer', minimum: 1, maximum: MESSAGE_STREAM_MAX_PAGE }),
      v.transform((s) => (s.trim() === '' ? MESSAGE_STREAM_PAGE : Number(s))),
      v.integer(pageSizeMessage),
      v.minValue(1, pageSizeMessage),
      v.maxValue(MESSAGE_STREAM_MAX_PAGE, pageSizeMessage),
    ),
    String(MESSAGE_STREAM_PAGE),
  ),
});
/** ContinuationToken null: no older messages. */
export const messageStreamSchema = v.strictObject({ Items: v.array(deviceMessageSchema), ContinuationToken: v.nullable(v.string()) });
export type MessageStream = v.InferOutput<typeof messageStreamSchema>;

/**
 * GET /devices/get-detailed-message?identity=&messageReceived=&deviceType=[&messageId=] — the
 * message received at that instant (messageId picks one if several share it).
 * MessageProperties is the properties map as a JSON string (parse the answer, then this string);
 * show scalar values only, empty ones as a dash.
 */
export const detailedMessageQuery = v.object({
  identity,
  messageReceived: isoDate,
  deviceType: v.optional(v.string(), ''),
  messageId: v.optional(v.pipe(v.string(), v.maxLength(100)), ''),
});
export const detailedMessageSchema = v.strictObject({ ...deviceMessageSchema.entries, MessageProperties: v.string(), RawMessage: v.string() });
export type DetailedMessageDto = v.InferOutput<typeof detailedMessageSchema>;

// ---------------------------------------------------------------- last messages (Device Testing tab)

export const LAST_MESSAGE_ORDER_BY = ['SerialNumber', 'DeviceType', 'Date', 'Message', 'Battery', 'Signal', 'IsConnected'] as const;
/** POST /devices/get-last-messages (and download-last-messages-csv, which ignores paging). */
export const lastMessagesBody = v.object(
  {
    deviceIdentities: identityList,
    desc: v.optional(v.boolean('desc must be true or false.'), false),
    deviceTypeIds: numberList(devTypeValues, LIVE_TEXT.unknownType),
    connected: optionalBool('connected must be true, false or null.'),
    orderBy: v.optional(v.picklist(LAST_MESSAGE_ORDER_BY, `orderBy must be one of ${LAST_MESSAGE_ORDER_BY.join(', ')}.`), 'SerialNumber'),
    /** serial, identity or message text contains (case-insensitive) */
    searchValue: searchText,
    withNoMessagesOnly: v.optional(v.boolean('withNoMessagesOnly must be true or false.'), false),
    page,
    pageSize,
  },
  LIVE_TEXT.badBody,
);
export type LastMessagesFilter = v.InferInput<typeof lastMessagesBody>;
export type LastMessagesBody = v.InferOutput<typeof lastMessagesBody>;

/** Spec §3 "Last-message device". IsEmpty: no message received ('No communication received from this device'). Also the DeviceMonitoring event. */
export const lastMessageSchema = v.strictObject({
  DeviceId: v.string(),
  SerialNumber: v.string(),
  DeviceType: deviceTypeSchema,
  Date: v.nullable(v.string()),
  Message: v.nullable(v.string()),
  Battery: v.nullable(v.number()),
  Signal: v.nullable(v.number()),
  IsConnected: v.boolean(),
  IsEmpty: v.boolean(),
  DeviceIdentity: v.string(),
  MessageId: v.nullable(v.string()),
  PartitionKey: v.string(),
});
export type LastMessageDto = v.InferOutput<typeof lastMessageSchema>;
export const lastMessagesSchema = pagedListSchema(lastMessageSchema);
export type LastMessages = v.InferOutput<typeof lastMessagesSchema>;

// ---------------------------------------------------------------- hub

/** POST /api/admin/negotiate?userid= (userid, when given, must be the caller). */
export const negotiateQuery = v.object({ userid: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100)), '') });
/** Url: absolute hub URL for the @microsoft/signalr client; AccessToken: its accessTokenFactory's answer (expires with the caller's access token). */
export const negotiateResponseSchema = v.strictObject({ Url: v.string(), AccessToken: v.string() });
export type NegotiateResponse = v.InferOutput<typeof negotiateResponseSchema>;

/** POST /devices/subscribe-for-monitoring — adds the identities to the connection's groups (additive; re-sending is harmless). */
export const subscribeBody = v.object(
  {
    connectionId: text(LIVE_TEXT.connectionIdRequired, 100, LIVE_TEXT.connectionIdRequired),
    deviceIdentities: v.pipe(identityList, v.minLength(1, LIVE_TEXT.noDevices)),
  },
  LIVE_TEXT.badBody,
);
/** Refused: unknown identities and devices the caller may not see (another tenant's). */
export const subscribeResponseSchema = v.strictObject({ Subscribed: v.array(v.string()), Refused: v.array(v.string()) });
export type SubscribeResponse = v.InferOutput<typeof subscribeResponseSchema>;

/** DeviceConnected: the device's connection state changed. */
export const deviceConnectedEventSchema = v.strictObject({
  DeviceId: v.string(),
  DeviceIdentity: v.string(),
  SerialNumber: v.string(),
  IsConnected: v.boolean(),
  Date: v.string(),
});
/** DeviceConfigurationUpdated: the current configuration changed (refetch it); Id = device id. */
export const configurationUpdatedEventSchema = v.strictObject({
  Id: v.string(),
  DeviceIdentity: v.string(),
  SerialNumber: v.string(),
  LastUpdated: v.nullable(v.string()),
});

/**
 * Spec document 2 §3: "Live update carries serial, date, message, battery, signal, partitionKey".
 * Every hub event carries these names (camelCase, as the spec writes them) beside its own fields;
 * a field an event has no value for is null (DeviceConnected has no message, battery or signal;
 * DeviceConfigurationUpdated's date is the configuration's LastUpdated).
 */
export const liveUpdateNames = {
  serial: v.string(),
  date: v.nullable(v.string()),
  message: v.nullable(v.string()),
  battery: v.nullable(v.number()),
  signal: v.nullable(v.number()),
  partitionKey: v.string(),
};
type LiveUpdateNames = { serial: string; date: string | null; message: string | null; battery: number | null; signal: number | null; partitionKey: string };

/** MessageStream: a new message of a subscribed device (the message stream row plus the spec's names). */
export const messageStreamEventSchema = v.strictObject({ ...deviceMessageSchema.entries, ...liveUpdateNames });
/** DeviceMonitoring: the device's last message changed (the Device Testing row plus the spec's names). */
export const deviceMonitoringEventSchema = v.strictObject({ ...lastMessageSchema.entries, ...liveUpdateNames });
export const deviceConnectedLiveSchema = v.strictObject({ ...deviceConnectedEventSchema.entries, ...liveUpdateNames });
export const configurationUpdatedLiveSchema = v.strictObject({ ...configurationUpdatedEventSchema.entries, ...liveUpdateNames });

/** Payload of each hub event (one argument per invocation). */
export const HUB_EVENT_SCHEMAS = {
  MessageStream: messageStreamEventSchema,
  DeviceMonitoring: deviceMonitoringEventSchema,
  DeviceConnected: deviceConnectedLiveSchema,
  DeviceConfigurationUpdated: configurationUpdatedLiveSchema,
} as const satisfies Record<HubEventName, v.GenericSchema>;
export type HubEventPayloads = { [K in HubEventName]: v.InferOutput<(typeof HUB_EVENT_SCHEMAS)[K]> };

/**
 * The payload of each hub event built from its row: the one place the spec's names are added.
 * Object.assign, not `{ ...row, name: … }`: in this V8 adding properties after a spread takes a slow
 * path (~20 µs an object against ~1.5 µs), and these run for every ingested message.
 */
export const hubPayload = {
  MessageStream: (m: DeviceMessageDto): HubEventPayloads['MessageStream'] =>
    Object.assign({}, m, {
      serial: m.Serial,
      date: m.Date,
      message: m.Message,
      battery: m.Battery,
      signal: m.Signal,
      partitionKey: m.PartitionKey,
    }),
  DeviceMonitoring: (r: LastMessageDto): HubEventPayloads['DeviceMonitoring'] =>
    Object.assign({}, r, {
      serial: r.SerialNumber,
      date: r.Date,
      message: r.Message,
      battery: r.Battery,
      signal: r.Signal,
      partitionKey: r.PartitionKey,
    }),
  DeviceConnected: (e: v.InferOutput<typeof deviceConnectedEventSchema>): HubEventPayloads['DeviceConnected'] =>
    Object.assign({}, e, {
      serial: e.SerialNumber,
      date: e.Date,
      message: null,
      battery: null,
      signal: null,
      partitionKey: e.DeviceIdentity,
    }),
  DeviceConfigurationUpdated: (e: v.InferOutput<typeof configurationUpdatedEventSchema>): HubEventPayloads['DeviceConfigurationUpdated'] =>
    Object.assign({}, e, {
      serial: e.SerialNumber,
      date: e.LastUpdated,
      message: null,
      battery: null,
      signal: null,
      partitionKey: e.DeviceIdentity,
    }),
} satisfies { [K in HubEventName]: (row: never) => HubEventPayloads[K] & LiveUpdateNames };

// ---------------------------------------------------------------- ingestion (gateways)

const PROPERTIES_MAX = 16 * 1024;
/** What a device reports of its configuration: properties.Configuration (any subset). */
export const reportedConfigurationSchema = v.strictObject({
  IsTracking: v.optional(v.boolean()),
  TrackingSeconds: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(86_400)))),
  IsFallDetection: v.optional(v.boolean()),
  FallDetectionSettings: v.optional(v.nullable(v.pipe(v.string(), v.regex(/^\d{3}-\d{3}-\d{3}$/, 'FallDetectionSettings must be "sss-uuu-nnn".')))),
  FirmwareVersion: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(64)))),
  SosButton: v.optional(v.boolean()),
  Call1Type: v.optional(v.nullable(v.picklist(callValues))),
  Call1Number: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(32)))),
  Call2Type: v.optional(v.nullable(v.picklist(callValues))),
  Call2Number: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(32)))),
  PrimaryEndPoint: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(100)))),
  SecondaryEndPoint: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(100)))),
  SmsBackup: v.optional(v.boolean()),
});
export type ReportedConfiguration = v.InferOutput<typeof reportedConfigurationSchema>;

/**
 * One message of POST /api/v1/device-messages/ingest (the body is a JSON array of these).
 * properties (a JSON object, at most 16 KB) may carry, besides anything else:
 *   Configuration: reportedConfigurationSchema — the device's current configuration (applied);
 *   AppliedConfigurationIds: string[] — ids of the queued commands (Commands[].Id) now applied;
 *   FirmwareVersion: string — the firmware it runs.
 */
export const ingestMessageSchema = v.object({
  messageId: text('messageId is required.', 100, 'messageId can be at most 100 characters long.'),
  deviceIdentity: identity,
  deviceType: v.pipe(v.picklist(devTypeValues, LIVE_TEXT.unknownType)),
  date: isoDate,
  message: text('message is required.', 200, 'message can be at most 200 characters long.'),
  battery: v.optional(
    v.nullable(
      v.pipe(
        v.number('battery must be 0 to 100.'),
        v.integer('battery must be 0 to 100.'),
        v.minValue(0, 'battery must be 0 to 100.'),
        v.maxValue(100, 'battery must be 0 to 100.'),
      ),
    ),
    null,
  ),
  signal: v.optional(
    v.nullable(
      v.pipe(
        v.number('signal must be 0 to 100.'),
        v.integer('signal must be 0 to 100.'),
        v.minValue(0, 'signal must be 0 to 100.'),
        v.maxValue(100, 'signal must be 0 to 100.'),
      ),
    ),
    null,
  ),
  location: v.optional(
    v.nullable(
      v.object({
        latitude: v.pipe(
          v.number('latitude must be -90 to 90.'),
          v.minValue(-90, 'latitude must be -90 to 90.'),
          v.maxValue(90, 'latitude must be -90 to 90.'),
        ),
        longitude: v.pipe(
          v.number('longitude must be -180 to 180.'),
          v.minValue(-180, 'longitude must be -180 to 180.'),
          v.maxValue(180, 'longitude must be -180 to 180.'),
        ),
        accuracy: v.optional(v.nullable(v.pipe(v.number('accuracy must be a number of metres.'), v.minValue(0, 'accuracy must be a number of metres.'))), null),
      }),
    ),
    null,
  ),
  rawMessage: v.optional(v.pipe(v.string('rawMessage must be text.'), v.maxLength(4000, 'rawMessage can be at most 4000 characters long.')), ''),
  properties: v.optional(
    v.pipe(
      v.record(v.string(), v.unknown(), 'properties must be a JSON object.'),
      v.check((p) => JSON.stringify(p).length <= PROPERTIES_MAX, LIVE_TEXT.propertiesTooLarge),
    ),
    {},
  ),
});
export type IngestMessageInput = v.InferInput<typeof ingestMessageSchema>;
export type IngestMessage = v.InferOutput<typeof ingestMessageSchema>;

/** Something the gateway must send to a device (queued changes go out when the device reports 'Power on'; refresh requests with any message). */
export const deviceCommandSchema = v.strictObject({
  Id: v.string(),
  DeviceIdentity: v.string(),
  Kind: v.picklist(DESIRED_KINDS),
  Configuration: v.nullable(configurationChangeSchema),
  RequestedAt: v.string(),
});
export type DeviceCommand = v.InferOutput<typeof deviceCommandSchema>;

/**
 * The ingestion answer. HTTP 200 when every entry was stored or was a duplicate; 207 when some
 * were refused; 400 (this body plus Content { Message, Code, Errors: { [index]: message } }) when
 * none could be stored. 403 (error body, Code gateway_key_invalid) for a missing or wrong X-Gateway-Key.
 * Results lists the entries that were not stored, with a status per entry:
 *   200 duplicate_message (already stored: idempotent on messageId), 400 validation_error,
 *   404 stock_device_not_found (no device has the identity).
 */
export const ingestResponseSchema = v.strictObject({
  Accepted: v.number(),
  Duplicates: v.number(),
  Rejected: v.number(),
  Results: v.array(v.strictObject({ Index: v.number(), MessageId: v.nullable(v.string()), Status: v.number(), Code: v.string(), Message: v.string() })),
  Commands: v.array(deviceCommandSchema),
});
export type IngestResponse = v.InferOutput<typeof ingestResponseSchema>;
