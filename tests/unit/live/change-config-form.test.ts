// The Change Configuration rules (spec document 2 §3 payload and presets, §5 configuration change).
import { describe, expect, it } from 'vitest';
import {
  buildChangePayload,
  changeConfigErrors,
  CHANGE_TEXTS,
  deviceTypeRule,
  EMPTY_CHANGE,
  fallChoicesFor,
  hasAnyChange,
  rawCommandError,
  type ChangeConfigValues,
  type ChangeContext,
} from '../../../src/app/features/bulk-manage/change-config-form';
import { MSG } from '../../../src/shared/messages';
import { CALL_BUTTON, FALL_PRESETS_DEFAULT, FALL_PRESETS_NEWER, FALL_PRESET_CUSTOM } from '../../../src/shared/schemas/live';

const DEFAULT_FW = '4.3.1';
const NEWER_FW = '5.1.4';
const ctx = (over: Partial<ChangeContext> = {}): ChangeContext => ({
  customCallType: CALL_BUTTON.Custom,
  fall: fallChoicesFor([DEFAULT_FW, DEFAULT_FW]),
  ...over,
});
const values = (over: Partial<ChangeConfigValues> = {}): ChangeConfigValues => ({ ...EMPTY_CHANGE, ...over });

describe('change configuration form', () => {
  it('nothing ticked is no change; a custom command alone is one', () => {
    expect(hasAnyChange(values())).toBe(false);
    expect(hasAnyChange(values({ rawCommands: [{ rawCommand: 'STATUS#', communicationProtocol: 'SMS' }] }))).toBe(true);
    expect(hasAnyChange(values({ call2Change: true }))).toBe(true);
  });

  it('tracking interval: at least 5 while tracking is on, at most 360; off needs no interval; unticked is not checked', () => {
    expect(changeConfigErrors(values({ trackingChange: true, trackingInterval: '4' }), ctx()).trackingInterval).toBe(MSG.atLeast5);
    expect(changeConfigErrors(values({ trackingChange: true, trackingInterval: '' }), ctx()).trackingInterval).toBe(MSG.atLeast5);
    expect(changeConfigErrors(values({ trackingChange: true, trackingInterval: '361' }), ctx()).trackingInterval).toBe(CHANGE_TEXTS.trackingTooLarge);
    expect(changeConfigErrors(values({ trackingChange: true, trackingInterval: '5' }), ctx())).toEqual({});
    expect(changeConfigErrors(values({ trackingChange: true, isTrackingEnabled: false, trackingInterval: '' }), ctx())).toEqual({});
    expect(changeConfigErrors(values({ trackingChange: false, trackingInterval: '1' }), ctx())).toEqual({});
  });

  it('fall detection: presets by firmware version, Custom only for the default set, custom values 0–254', () => {
    expect(fallChoicesFor([DEFAULT_FW])).toEqual({ presets: FALL_PRESETS_DEFAULT, custom: true });
    expect(fallChoicesFor([NEWER_FW, NEWER_FW])).toEqual({ presets: FALL_PRESETS_NEWER, custom: false });
    // Spec §5: only when all selected devices share one firmware version.
    expect(fallChoicesFor([DEFAULT_FW, NEWER_FW])).toBeNull();
    expect(changeConfigErrors(values({ fallChange: true }), ctx({ fall: null })).fallChange).toBe(CHANGE_TEXTS.fallNeedsOneFirmware);

    expect(changeConfigErrors(values({ fallChange: true }), ctx()).fallPreset).toBe(CHANGE_TEXTS.presetRequired);
    const custom = values({ fallChange: true, fallPreset: FALL_PRESET_CUSTOM, manDownSensitivity: '255', manDownUpTime: 'x', manDownNonMovementDuration: '0' });
    expect(changeConfigErrors(custom, ctx())).toEqual({ manDownSensitivity: CHANGE_TEXTS.fallRange, manDownUpTime: CHANGE_TEXTS.fallRange });
    // Custom is not a choice of the newer firmware set.
    expect(changeConfigErrors(values({ fallChange: true, fallPreset: FALL_PRESET_CUSTOM }), ctx({ fall: fallChoicesFor([NEWER_FW]) })).fallPreset).toBe(
      CHANGE_TEXTS.presetRequired,
    );
    expect(changeConfigErrors(values({ fallChange: true, isManDownEnabled: false }), ctx())).toEqual({});
  });

  it('call buttons: a type is needed, and a number when the type is the custom one', () => {
    expect(changeConfigErrors(values({ call1Change: true }), ctx()).call1Button).toBe(CHANGE_TEXTS.callTypeRequired);
    expect(changeConfigErrors(values({ call1Change: true, call1Button: String(CALL_BUTTON.Custom) }), ctx()).call1Number).toBe(CHANGE_TEXTS.callNumberRequired);
    expect(changeConfigErrors(values({ call2Change: true, call2Button: String(CALL_BUTTON.Arc) }), ctx())).toEqual({});
  });

  it('custom commands: text, SMS or TCP, no duplicate of command and method', () => {
    const list = [{ rawCommand: 'REBOOT#', communicationProtocol: 'SMS' as const }];
    expect(rawCommandError(list, '  ', 'SMS')).toBe(MSG.enterCustomCommand);
    expect(rawCommandError(list, 'STATUS#', '')).toBe(MSG.selectDeliveryMethod);
    expect(rawCommandError(list, 'REBOOT#', 'SMS')).toBe(MSG.commandExists);
    expect(rawCommandError(list, 'REBOOT#', 'TCP')).toBeNull();
  });

  it('the payload carries only the ticked groups, in the spec field names', () => {
    const serials = ['SG640-00001', 'SG640-00002'];
    expect(buildChangePayload(values({ trackingInterval: '30' }), serials, ctx())).toEqual({ serials });

    const preset = FALL_PRESETS_DEFAULT[1]!; // Default 030/150/200
    const all = values({
      trackingChange: true,
      trackingInterval: '30',
      fallChange: true,
      fallPreset: preset.Value,
      call1Change: true,
      call1Button: String(CALL_BUTTON.Arc),
      call2Change: true,
      call2Button: String(CALL_BUTTON.Custom),
      call2Number: ' +447700900123 ',
      rawCommands: [{ rawCommand: 'STATUS#', communicationProtocol: 'TCP' }],
    });
    expect(buildChangePayload(all, serials, ctx())).toEqual({
      serials,
      isTrackingEnabled: true,
      trackingIntervalMinutes: 30,
      isManDownEnabled: true,
      manDownSensitivity: 30,
      manDownUpTime: 150,
      manDownNonMovementDuration: 200,
      call1Button: CALL_BUTTON.Arc,
      call2Button: CALL_BUTTON.Custom,
      custom2Number: { phoneNumber: '+447700900123' },
      rawCommands: [{ rawCommand: 'STATUS#', communicationProtocol: 'TCP' }],
    });
    // Tracking off: the interval goes as 0; custom fall values are sent as numbers.
    const off = buildChangePayload(
      values({
        trackingChange: true,
        isTrackingEnabled: false,
        fallChange: true,
        fallPreset: FALL_PRESET_CUSTOM,
        manDownSensitivity: '7',
        manDownUpTime: '254',
        manDownNonMovementDuration: '0',
      }),
      serials,
      ctx(),
    );
    expect(off).toMatchObject({
      isTrackingEnabled: false,
      trackingIntervalMinutes: 0,
      manDownSensitivity: 7,
      manDownUpTime: 254,
      manDownNonMovementDuration: 0,
    });
  });

  it('Send needs one device type that supports configuration change', () => {
    expect(deviceTypeRule([640, 640])).toBeNull();
    expect(deviceTypeRule([640, 750])).toBe(MSG.oneDeviceType);
    expect(deviceTypeRule([3])).toBe(MSG.typeNotConfigurable(MSG.productName)); // smartphone
    expect(deviceTypeRule([])).toBe(MSG.selectOneDevice);
  });
});
