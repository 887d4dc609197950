// Names, not codes: statuses in words, and device types that share a name told apart by their code.
import { describe, expect, it } from 'vitest';
import { ASSET_STATUSES, DEVICE_TYPES, deviceTypeDisplayName, statusDisplayName } from '../../../src/shared/codes';

describe('display names', () => {
  it('statuses read as words, never as code names', () => {
    expect(statusDisplayName('AwaitingReturn_Replacement')).toBe('Awaiting Return (Replacement)');
    expect(statusDisplayName('QuarantineDamaged')).toBe('Quarantine (Damaged)');
    expect(statusDisplayName('NonReturnedDevice_FaultyReplacement')).toBe('Not Returned (Faulty Replacement)');
    expect(statusDisplayName('New')).toBe('New');
    for (const s of ASSET_STATUSES) expect(statusDisplayName(s.Name), s.Name).not.toMatch(/_|[a-z][A-Z]/);
  });
  it("the three 'badge' types are distinguishable; other types keep their name", () => {
    expect([42, 52, 140].map((v) => deviceTypeDisplayName(DEVICE_TYPES.find((t) => t.Value === v)!))).toEqual(['badge (42)', 'badge (52)', 'badge (140)']);
    expect(deviceTypeDisplayName({ name: 'badge', value: 52 })).toBe('badge (52)');
    expect(deviceTypeDisplayName({ Name: 'SG620', Value: 620 })).toBe('SG620');
    expect(new Set(DEVICE_TYPES.map(deviceTypeDisplayName)).size).toBe(DEVICE_TYPES.length);
  });
});
