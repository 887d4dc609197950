// Pure helpers of the Fleet Health page: the links a count opens and what each threshold says.
import { getHref } from '../../paths';
import { type FleetCategory, type FleetThresholds } from '../../../shared/schemas/fleet';

/** The device list filtered to a category: the asset list, or one customer's Devices tab (the list's filter `fleet` in the link). */
export const fleetListHref = (category: FleetCategory, customerId?: string) =>
  `${customerId ? getHref('customerDevices', { customerId }) : getHref('assets')}?f.fleet=${category}`;

const DESCRIPTIONS: Record<FleetCategory, (t: FleetThresholds) => string> = {
  silent: (t) => `No message for more than ${t.silentHours} hours`,
  notCharged: (t) => `Battery at or below ${t.lowBattery} % and no charge in ${t.notChargedDays} days`,
  unused: (t) => `No check-in or power-on in ${t.unusedDays} days`,
  switchedOff: () => 'Last message was Power off',
  configPending: (t) => `Configuration change waiting more than ${t.configHours} hours`,
  firmwareBehind: () => 'Older than the newest firmware of its type',
};

/** What a category counts, with the provider's thresholds (a customer's own may differ). */
export const thresholdText = (category: FleetCategory, t: FleetThresholds) => DESCRIPTIONS[category](t);
