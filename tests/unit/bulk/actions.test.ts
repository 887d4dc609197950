import { describe, expect, it } from 'vitest';
import { orderEligible, STATUS_TARGETS, statusWarning } from '../../../src/app/features/bulk-update/bulk-rules';
import type { BulkDevice } from '../../../src/app/state/bulk';

const d = (status: number, isUserAssigned = false): BulkDevice => ({
  id: `i${status}${isUserAssigned}`,
  etag: 'e',
  serialNumber: `S${status}`,
  type: { name: 'T4', value: 30 },
  status: { name: String(status), value: status },
  isUserAssigned,
});

describe('bulk action rules (spec §5)', () => {
  it('Allocated is not a status target', () => {
    expect(STATUS_TARGETS.map((s) => s.Value)).not.toContain(3);
    expect(STATUS_TARGETS.length).toBe(10);
  });
  it('warns with counts when devices leave a customer account', () => {
    expect(statusWarning([d(1), d(3), d(10)], 5)).toBe('2 devices will be removed from the customer account(s), are you sure?');
    expect(statusWarning([d(3, true), d(4)], 5)).toBe('2 devices will be unassigned from users and removed from the customer(s) account, are you sure?');
    expect(statusWarning([d(3), d(4)], 4)).toBeNull();
    expect(statusWarning([d(1)], 5)).toBeNull();
    expect(statusWarning([d(3)], null)).toBeNull();
  });
  it('order number goes only to devices in a customer account', () => {
    expect(orderEligible([d(1), d(3), d(4), d(10), d(5)]).map((x) => x.status.value)).toEqual([3, 4, 10]);
  });
});
