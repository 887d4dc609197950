import { describe, expect, it } from 'vitest';
import {
  allocationConfirmation,
  exceededTypes,
  nextEntryNotice,
  serialEntryProblem,
  type AllocRow,
  type EntryNotice,
} from '../../../src/app/features/customers/allocation-rules';
import {
  deviceRowTone,
  deviceRowVisible,
  isQuantity,
  overAllocatedNames,
  phoneRowError,
  subscriptionEtagsChanged,
  trackingIntervalError,
  trackingIntervalOut,
} from '../../../src/app/features/customers/subscription-rules';
import { applySetting, settingDisabled, visibleSettings, type CustomerSettingsValues } from '../../../src/app/features/customers/settings-rules';

const row = (typeValue: number, typeName: string, i: number): AllocRow => ({
  id: `d${i}`,
  etag: 'e',
  serialNumber: `SN${i}`,
  typeValue,
  typeName,
  eligible: true,
});

describe('allocation rules (spec §5 "Allocation")', () => {
  const quotas = [
    { typeValue: 621, typeName: 'SG621', purchased: 5, allocated: 3 },
    { typeValue: 370, typeName: 'MG370', purchased: 10, allocated: 0 },
  ];
  it('finds the device types whose remaining quota is exceeded', () => {
    expect(exceededTypes([row(621, 'SG621', 1), row(621, 'SG621', 2)], quotas)).toEqual([]);
    expect(exceededTypes([row(621, 'SG621', 1), row(621, 'SG621', 2), row(621, 'SG621', 3)], quotas)).toEqual(['SG621']);
    // a type without any subscription has no quota
    expect(exceededTypes([row(750, 'SG750', 1)], quotas)).toEqual(['SG750']);
  });
  it('words the confirmation as the spec does', () => {
    expect(allocationConfirmation('PO-1', [])).toBeNull();
    expect(allocationConfirmation(' ', [])).toBe('Are you sure you want to continue without an order number?');
    expect(allocationConfirmation('PO-1', ['SG621', 'SG750'])).toBe('Allocation of SG621, SG750 exceeds subscription are you sure?');
    expect(allocationConfirmation('', ['SG621'])).toBe('Order number is missing and allocation of SG621 exceeds subscription. Are you sure?');
  });
  it('serial entry: empty and already added', () => {
    const rows = [{ serialNumber: 'ABC123' }];
    expect(serialEntryProblem('  ', rows, 'No serial number entered.', 'Device already added.')).toBe('No serial number entered.');
    expect(serialEntryProblem('abc123', rows, 'No serial number entered.', 'Device already added.')).toBe('Device already added.');
    expect(serialEntryProblem('XYZ', rows, 'No serial number entered.', 'Device already added.')).toBe('');
  });
});

describe('subscription rules (spec §2, §4, §5)', () => {
  it('quantities are non-empty non-negative whole numbers', () => {
    expect(isQuantity('0')).toBe(true);
    expect(isQuantity(' 12 ')).toBe(true);
    for (const bad of ['', '-1', '1.5', 'x']) expect(isQuantity(bad)).toBe(false);
  });
  it('highlights rows', () => {
    expect(phoneRowError(5, '4')).toBe(true);
    expect(phoneRowError(4, '4')).toBe(false);
    expect(deviceRowTone(5, '4')).toBe('error');
    expect(deviceRowTone(3, '4')).toBe('warning');
    expect(deviceRowTone(4, '4')).toBeNull();
  });
  it('shows only active device types unless Show all', () => {
    expect(deviceRowVisible({ purchased: 0, allocated: 0 }, false)).toBe(false);
    expect(deviceRowVisible({ purchased: 0, allocated: 2 }, false)).toBe(true);
    expect(deviceRowVisible({ purchased: 0, allocated: 0 }, true)).toBe(true);
  });
  it('tracking interval: at least 5 while tracking is on, 0 when empty', () => {
    expect(trackingIntervalError(true, '4')).toBe('Should be at least 5.');
    expect(trackingIntervalError(true, '')).toBe('Should be at least 5.');
    expect(trackingIntervalError(true, '5')).toBeNull();
    expect(trackingIntervalError(false, '')).toBeNull();
    expect(trackingIntervalOut('')).toBe(0);
    expect(trackingIntervalOut('15')).toBe(15);
  });
  it('names the over-allocated device types', () => {
    expect(
      overAllocatedNames([
        { name: 'SG621', allocated: 5, entered: '4' },
        { name: 'MG370', allocated: 1, entered: '4' },
      ]),
    ).toEqual(['SG621']);
  });
  it('a save is a conflict when any fresh etag differs from the one the form was loaded with', () => {
    const loaded = { CustomerEtag: '"c1"', DeviceSubscriptions: { Etag: '"d1"' }, AppSubscriptions: { Etag: '"a1"' } };
    expect(subscriptionEtagsChanged(loaded, structuredClone(loaded))).toBe(false);
    expect(subscriptionEtagsChanged(loaded, { ...loaded, CustomerEtag: '"c2"' })).toBe(true);
    expect(subscriptionEtagsChanged(loaded, { ...loaded, DeviceSubscriptions: { Etag: '"d2"' } })).toBe(true);
    expect(subscriptionEtagsChanged(loaded, { ...loaded, AppSubscriptions: { Etag: null } })).toBe(true);
  });
});

describe('settings rules (spec §2, §6)', () => {
  const s: CustomerSettingsValues = {
    IsAutomaticEmailsPaused: false,
    AllowDeviceSubscriptionChanges: false,
    EnableDiscreetAlarmApp: false,
    EnableFallDetectionApp: false,
    EnableSmsActivityConfirmation: false,
    EnableAlarmReportIntelligence: true,
    AutoGenerateAlarmIntelligence: true,
  };
  it('super admin only toggles and feature flags', () => {
    expect(visibleSettings({ superAdmin: false, flags: { alarmReportIntelligence: true, autoGenerate: true } })).toEqual([
      'IsAutomaticEmailsPaused',
      'AllowDeviceSubscriptionChanges',
    ]);
    const all = visibleSettings({ superAdmin: true, flags: { alarmReportIntelligence: true, autoGenerate: true } });
    expect(all).toHaveLength(7);
    expect(visibleSettings({ superAdmin: true, flags: { alarmReportIntelligence: true, autoGenerate: false } })).not.toContain('AutoGenerateAlarmIntelligence');
    expect(visibleSettings({ superAdmin: true, flags: { alarmReportIntelligence: false, autoGenerate: true } })).not.toContain('EnableAlarmReportIntelligence');
  });
  it('turning Alarm Report Intelligence off forces auto-generate off', () => {
    const off = applySetting(s, 'EnableAlarmReportIntelligence', false);
    expect(off.AutoGenerateAlarmIntelligence).toBe(false);
    expect(settingDisabled(off, 'AutoGenerateAlarmIntelligence')).toBe(true);
    expect(applySetting(s, 'IsAutomaticEmailsPaused', true).AutoGenerateAlarmIntelligence).toBe(true);
  });
});

describe('Allocate Devices: the serial field notice', () => {
  const already = 'Device already added.';
  it("a repeat's 'Device already added.' is not overwritten by the next scan of the burst; it names every repeat", () => {
    let n: EntryNotice = { error: '', repeats: [] };
    n = nextEntryNotice(n, 'A1', '', already);
    n = nextEntryNotice(n, ' A1 ', already, already);
    n = nextEntryNotice(n, 'B2', '', already);
    expect(n).toEqual({ error: '', repeats: ['A1'] });
    n = nextEntryNotice(n, 'B2', already, already);
    n = nextEntryNotice(n, '', 'No serial number entered.', already);
    expect(n).toEqual({ error: 'No serial number entered.', repeats: ['A1', 'B2'] });
    expect(nextEntryNotice(n, 'C3', '', already)).toEqual({ error: '', repeats: ['A1', 'B2'] });
  });
});
