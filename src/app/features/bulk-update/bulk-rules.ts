// The bulk actions' rules (spec §4, §5), as plain functions (tests/unit/bulk/actions.test.ts).
import { ASSET_STATUSES, DEVICE_TYPES } from '../../../shared/codes';
import type { BulkDevice } from '../../state/bulk';
import { formatCount } from '../../../shared/numbers';

/** Allocated (3) and the two awaiting-return statuses (4, 10): the device is in a customer account. */
export const IN_ACCOUNT = [3, 4, 10];
export const inAccount = (d: BulkDevice) => IN_ACCOUNT.includes(d.status.value);

/** Status targets: every status but Allocated. */
export const STATUS_TARGETS = ASSET_STATUSES.filter((s) => s.Value !== 3);
export const TYPE_TARGETS = DEVICE_TYPES;

export const ACTION_MSG = {
  unassignWarning: (n: number) => `${formatCount(n)} devices will be unassigned from users and removed from the customer(s) account, are you sure?`,
  removeWarning: (n: number) => `${formatCount(n)} devices will be removed from the customer account(s), are you sure?`,
  typeWarning: (n: number, type: string) => `${formatCount(n)} devices will be changed to ${type}, are you sure?`,
  typeBlocked: 'Device type cannot be changed for devices in a customer account (Allocated or awaiting return). Remove them from the selection first.',
  statusRequired: 'Please select a status.',
  typeRequired: 'Please select a device type.',
  orderRequired: 'Please enter an order number.',
};

/** The warning the status change shows, or null (spec §5 "Bulk status"). */
export function statusWarning(selected: BulkDevice[], target: number | null): string | null {
  if (target === null || IN_ACCOUNT.includes(target)) return null;
  const leaving = selected.filter(inAccount);
  if (!leaving.length) return null;
  return leaving.some((d) => d.isUserAssigned) ? ACTION_MSG.unassignWarning(leaving.length) : ACTION_MSG.removeWarning(leaving.length);
}

/** Devices the order number change may touch (spec §5: Allocated or awaiting return). */
export const orderEligible = (selected: BulkDevice[]) => selected.filter(inAccount);
