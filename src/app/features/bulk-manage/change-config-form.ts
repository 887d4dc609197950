// The Change Configuration form's rules (spec document 2 §3 "Configuration change payload",
// "Fall-detection presets", §5 "Configuration change", "Tracking interval"), free of React so the
// unit tests drive them directly (tests/unit/live/change-config-form.test.ts). The limits, presets
// and the server's own messages are the contract's (src/shared/schemas/live.ts).
//   - each group (tracking, fall detection, call 1, call 2) is sent only when its 'change' box is
//     ticked; custom commands count as a change when there is at least one;
//   - tracking interval: required while tracking is on, at least 5 ('Should be at least 5.'),
//     sent as a number (0 when empty or off);
//   - fall detection: only when every selected device runs one firmware version; a preset of that
//     version, or (default firmware set) Custom with three numbers 0–254;
//   - call buttons: a number is required when the chosen type is the custom type;
//   - custom commands: text, delivery method SMS or TCP, no duplicate of command + method;
//   - Send: all devices one type, and a type that supports configuration change.
import { MSG } from '../../../shared/messages';
import {
  COMMUNICATION_PROTOCOLS,
  DEFAULT_TRACKING_INTERVAL,
  FALL_PRESET_CUSTOM,
  FALL_VALUE_MAX,
  FALL_VALUE_MIN,
  LIVE_TEXT,
  MAX_TRACKING_INTERVAL,
  MIN_TRACKING_INTERVAL,
  fallPresetsFor,
  isConfigurableType,
  isNewerFirmware,
  parseFallSettings,
  type CommunicationProtocol,
  type ConfigurationChangeInput,
  type FallPreset,
} from '../../../shared/schemas/live';
import { formatCount } from '../../../shared/numbers';
import { normalisePhone, phoneError, phoneMessage } from '../../../shared/phone';

/** Messages of this form the spec does not quote (ours, worded like its own, or the server's). */
export const CHANGE_TEXTS = {
  trackingTooLarge: LIVE_TEXT.trackingIntervalMax,
  fallRange: `Should be a number from ${FALL_VALUE_MIN} to ${FALL_VALUE_MAX}.`,
  callNumberRequired: LIVE_TEXT.callNumberRequired,
  callTypeRequired: 'Please select the call button type.',
  presetRequired: 'Please select a fall detection setting.',
  fallNeedsOneFirmware: LIVE_TEXT.sameFirmware,
  confirm: (n: number) => `Send the configuration change to ${formatCount(n)} device(s)? It is queued and sent when each device is turned on.`,
} as const;

export type RawCommand = { rawCommand: string; communicationProtocol: CommunicationProtocol };

export type ChangeConfigValues = {
  trackingChange: boolean;
  isTrackingEnabled: boolean;
  trackingInterval: string;
  fallChange: boolean;
  isManDownEnabled: boolean;
  /** A preset's Value ('030-150-200') or FALL_PRESET_CUSTOM. */
  fallPreset: string;
  manDownSensitivity: string;
  manDownUpTime: string;
  manDownNonMovementDuration: string;
  call1Change: boolean;
  call1Button: string;
  call1Number: string;
  call2Change: boolean;
  call2Button: string;
  call2Number: string;
  rawCommands: RawCommand[];
};

export const EMPTY_CHANGE: ChangeConfigValues = {
  trackingChange: false,
  isTrackingEnabled: true,
  trackingInterval: String(DEFAULT_TRACKING_INTERVAL),
  fallChange: false,
  isManDownEnabled: true,
  fallPreset: '',
  manDownSensitivity: '',
  manDownUpTime: '',
  manDownNonMovementDuration: '',
  call1Change: false,
  call1Button: '',
  call1Number: '',
  call2Change: false,
  call2Button: '',
  call2Number: '',
  rawCommands: [],
};

/** The fall-detection choices of one firmware version: its presets, and whether Custom is offered. */
export type FallChoices = { presets: readonly FallPreset[]; custom: boolean };

export type ChangeContext = {
  /** The custom call-button type (its number is typed in). */
  customCallType: number | null;
  /** The fall-detection choices of the selected devices' one firmware version; null when they differ. */
  fall: FallChoices | null;
};

export const hasAnyChange = (x: ChangeConfigValues) => x.trackingChange || x.fallChange || x.call1Change || x.call2Change || x.rawCommands.length > 0;

const isInt = (s: string) => /^\d+$/.test(s.trim());
const inFallRange = (s: string) => isInt(s) && Number(s) >= FALL_VALUE_MIN && Number(s) <= FALL_VALUE_MAX;

export type ChangeErrors = Partial<Record<keyof ChangeConfigValues & string, string>>;

/** Field errors of the form (first per field), in the spec's words where it has them. */
export function changeConfigErrors(x: ChangeConfigValues, ctx: ChangeContext): ChangeErrors {
  const e: ChangeErrors = {};
  if (x.trackingChange && x.isTrackingEnabled) {
    const t = x.trackingInterval.trim();
    if (!isInt(t) || Number(t) < MIN_TRACKING_INTERVAL) e.trackingInterval = MSG.atLeast5;
    else if (Number(t) > MAX_TRACKING_INTERVAL) e.trackingInterval = CHANGE_TEXTS.trackingTooLarge;
  }
  if (x.fallChange) {
    if (!ctx.fall) e.fallChange = CHANGE_TEXTS.fallNeedsOneFirmware;
    else if (x.isManDownEnabled) {
      const custom = x.fallPreset === FALL_PRESET_CUSTOM && ctx.fall.custom;
      if (!custom && !ctx.fall.presets.some((p) => p.Value === x.fallPreset)) e.fallPreset = CHANGE_TEXTS.presetRequired;
      else if (custom) {
        if (!inFallRange(x.manDownSensitivity)) e.manDownSensitivity = CHANGE_TEXTS.fallRange;
        if (!inFallRange(x.manDownUpTime)) e.manDownUpTime = CHANGE_TEXTS.fallRange;
        if (!inFallRange(x.manDownNonMovementDuration)) e.manDownNonMovementDuration = CHANGE_TEXTS.fallRange;
      }
    }
  }
  for (const n of [1, 2] as const) {
    if (!x[`call${n}Change`]) continue;
    const button = x[`call${n}Button`];
    if (button === '') e[`call${n}Button`] = CHANGE_TEXTS.callTypeRequired;
    else if (ctx.customCallType !== null && Number(button) === ctx.customCallType) {
      if (!x[`call${n}Number`].trim()) e[`call${n}Number`] = CHANGE_TEXTS.callNumberRequired;
      else if (phoneError(x[`call${n}Number`])) e[`call${n}Number`] = phoneMessage();
    }
  }
  return e;
}

/** Adding a custom command: its own three rules. Returns the message, or null when it may be added. */
export function rawCommandError(list: readonly RawCommand[], rawCommand: string, protocol: string): string | null {
  if (!rawCommand.trim()) return MSG.enterCustomCommand;
  if (!(COMMUNICATION_PROTOCOLS as readonly string[]).includes(protocol)) return MSG.selectDeliveryMethod;
  if (list.some((c) => c.rawCommand === rawCommand.trim() && c.communicationProtocol === protocol)) return MSG.commandExists;
  return null;
}

/** The three numbers of the chosen fall-detection setting (a preset's or the custom ones). */
export function fallValues(x: ChangeConfigValues, fall: FallChoices | null): [number, number, number] | null {
  if (x.fallPreset === FALL_PRESET_CUSTOM && fall?.custom) return [Number(x.manDownSensitivity), Number(x.manDownUpTime), Number(x.manDownNonMovementDuration)];
  const p = fall?.presets.find((q) => q.Value === x.fallPreset);
  return p ? parseFallSettings(p.Value) : null;
}

/** The configuration change payload: only the ticked groups. */
export function buildChangePayload(x: ChangeConfigValues, serials: readonly string[], ctx: ChangeContext): ConfigurationChangeInput {
  const out: ConfigurationChangeInput = { serials: [...serials] };
  if (x.trackingChange) {
    out.isTrackingEnabled = x.isTrackingEnabled;
    // Spec §5: sent as a number, 0 if empty.
    out.trackingIntervalMinutes = x.isTrackingEnabled && x.trackingInterval.trim() ? Number(x.trackingInterval) : 0;
  }
  if (x.fallChange) {
    out.isManDownEnabled = x.isManDownEnabled;
    const f = x.isManDownEnabled ? fallValues(x, ctx.fall) : null;
    if (f) [out.manDownSensitivity, out.manDownUpTime, out.manDownNonMovementDuration] = f;
  }
  if (x.call1Change) {
    out.call1Button = Number(x.call1Button);
    if (ctx.customCallType !== null && out.call1Button === ctx.customCallType)
      out.custom1Number = { phoneNumber: normalisePhone(x.call1Number) ?? x.call1Number.trim() };
  }
  if (x.call2Change) {
    out.call2Button = Number(x.call2Button);
    if (ctx.customCallType !== null && out.call2Button === ctx.customCallType)
      out.custom2Number = { phoneNumber: normalisePhone(x.call2Number) ?? x.call2Number.trim() };
  }
  if (x.rawCommands.length) out.rawCommands = x.rawCommands.map((c) => ({ ...c }));
  return out;
}

/** Spec §3/§5: one firmware version among the selected devices → its presets (+ Custom for the default set); else null. */
export function fallChoicesFor(firmwareVersions: readonly (string | null)[]): FallChoices | null {
  const distinct = new Set(firmwareVersions.map((f) => f ?? ''));
  if (distinct.size !== 1) return null;
  const [only = ''] = [...distinct];
  return { presets: fallPresetsFor(only || null), custom: !isNewerFirmware(only || null) };
}

/**
 * Spec §5: Send is disabled unless all selected devices are one type and that type supports
 * configuration change. Returns the message that says why, or null.
 */
export function deviceTypeRule(types: readonly number[]): string | null {
  const distinct = new Set(types);
  if (distinct.size > 1) return MSG.oneDeviceType;
  const [only] = [...distinct];
  if (only === undefined) return MSG.selectOneDevice;
  if (!isConfigurableType(only)) return MSG.typeNotConfigurable(MSG.productName);
  return null;
}
