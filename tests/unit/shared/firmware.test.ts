// Firmware versions compare part by part (fleet health's "firmware behind"), and the frozen copy
// migration 030 used reads the same.
import { describe, expect, test } from 'vitest';
import { compareFirmware, newestFirmware } from '../../../src/shared/firmware';
import * as frozen from '../../../src/server/db/migrations/lib/device-daily-usage';

describe('compareFirmware', () => {
  test.each([
    ['5.10.0', '5.9.2', 1],
    ['5.2.0', '5.1.4', 1],
    ['4.3.1', '4.3.1', 0],
    ['4.3', '4.3.1', -1],
    ['T4-2.08', 'T4-2.11', -1],
    ['EV07B_3.2.05', 'EV07B_3.1.12', 1],
    ['3.31', '3.20', 1],
  ])('%s against %s: %i', (a, b, sign) => {
    expect(Math.sign(compareFirmware(a, b))).toBe(sign);
    expect(Math.sign(compareFirmware(b, a))).toBe(sign === 0 ? 0 : -sign);
    expect(Math.sign(frozen.compareFirmware(a, b))).toBe(sign);
  });

  test('the newest of a list, in any order', () => {
    const list = ['4.2.7', '5.1.0', '4.3.1', '5.0.2', '5.10.1', '5.2.0'];
    for (const order of [list, [...list].reverse()]) expect(order.reduce<string | null>((n, v) => newestFirmware(n, v), null)).toBe('5.10.1');
  });
});
