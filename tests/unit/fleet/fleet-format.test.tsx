// Fleet Health's pure helpers: the links a count opens (the device lists' `fleet` filter, which
// deviceListFilterOf turns into the get-list body), and the thresholds form's reading of its boxes.
import { describe, expect, test } from 'vitest';
import { fleetListHref, thresholdText } from '../../../src/app/features/fleet/fleet-format';
import { readThresholds } from '../../../src/app/ui/fleet-thresholds-form';
import { deviceListFilterOf } from '../../../src/app/api/devices';
import { decodeListState } from '../../../src/app/workspace/list-state';
import { FLEET_DEFAULTS } from '../../../src/shared/schemas/fleet';

const CUSTOMER = '11111111-2222-4333-8444-555555555555';

describe('links', () => {
  test('a category opens the asset list, a customer cell its Devices tab, with the filter the list reads', () => {
    expect(fleetListHref('silent')).toBe('/asset-management?f.fleet=silent');
    expect(fleetListHref('notCharged', CUSTOMER)).toBe(`/customers/${CUSTOMER}/devices?f.fleet=notCharged`);
    const state = decodeListState('?f.fleet=notCharged', { page: 1, pageSize: 10, filters: {} });
    expect(deviceListFilterOf(state.filters!, 1, 10, { key: 'SerialNumber', desc: false }).fleetHealth).toBe('notCharged');
    expect(deviceListFilterOf({ fleet: 'bogus' }, 1, 10, { key: 'SerialNumber', desc: false }).fleetHealth).toBeUndefined();
  });

  test('what each category counts, with the thresholds', () => {
    expect(thresholdText('silent', FLEET_DEFAULTS)).toBe('No message for more than 24 hours');
    expect(thresholdText('notCharged', { ...FLEET_DEFAULTS, lowBattery: 15 })).toBe('Battery at or below 15 % and no charge in 3 days');
  });
});

describe('thresholds form', () => {
  const text = { silentHours: '24', lowBattery: '20', notChargedDays: '3', unusedDays: '7', configHours: '24' };
  test('whole numbers within bounds are read; anything else names its box', () => {
    expect(readThresholds(text, false).values).toEqual(FLEET_DEFAULTS);
    expect(readThresholds({ ...text, lowBattery: '101' }, false).error).toEqual({
      key: 'lowBattery',
      message: 'Low battery at or below must be a whole number from 1 to 100.',
    });
    expect(readThresholds({ ...text, unusedDays: '2.5' }, false).error?.key).toBe('unusedDays');
    expect(readThresholds({ ...text, silentHours: '' }, false).error?.key).toBe('silentHours');
  });
  test("a customer's empty box is null (the provider's value)", () => {
    expect(readThresholds({ ...text, silentHours: '', configHours: ' ' }, true).values).toEqual({ ...FLEET_DEFAULTS, silentHours: null, configHours: null });
  });
});
