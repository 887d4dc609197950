// The filter bars of the Current Configuration and Device Testing tabs → the request bodies the
// spec names (document 2 §2 "Bulk management tabs"), and the CSV file names. Pure functions
// (tests/unit/live/manage-filters.test.ts).
import { format } from 'date-fns';
import type { FilterValues } from '../../ui/filter-bar';
import type { SortState } from '../../ui/data-table/types';
import { CONFIGURATION_ORDER_BY, LAST_MESSAGE_ORDER_BY, type ConfigurationListFilter, type LastMessagesFilter } from '../../../shared/schemas/live';

const nums = (v: unknown) => (Array.isArray(v) ? v.map(Number).filter((n) => Number.isFinite(n)) : []);
const yesNo = (v: unknown): boolean | null => (v === 'yes' ? true : v === 'no' ? false : null);
/** The sort key when the contract knows it, else the default. */
const pick = <T extends string>(allowed: readonly T[], key: string, fallback: T): T => ((allowed as readonly string[]).includes(key) ? (key as T) : fallback);
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** Current Configuration: serialNumbers, orderBy, desc, deviceTypeIds, call1TypeIds, call2TypeIds, fallDetection, tracking, identifier. */
export function toConfigurationsFilter(
  serialNumbers: readonly string[],
  values: FilterValues,
  sort: SortState,
): Omit<ConfigurationListFilter, 'page' | 'pageSize'> {
  return {
    serialNumbers: [...serialNumbers],
    orderBy: pick(CONFIGURATION_ORDER_BY, sort.key, 'Serial'),
    desc: sort.desc,
    deviceTypeIds: nums(values.types),
    call1TypeIds: nums(values.call1),
    call2TypeIds: nums(values.call2),
    fallDetection: yesNo(values.fallDetection),
    tracking: yesNo(values.tracking),
    identifier: text(values.search),
  };
}

/** Device Testing: deviceIdentities, desc, deviceTypeIds, connected, orderBy, searchValue, withNoMessagesOnly. */
export function toLastMessagesFilter(
  deviceIdentities: readonly string[],
  values: FilterValues,
  sort: SortState,
): Omit<LastMessagesFilter, 'page' | 'pageSize'> {
  return {
    deviceIdentities: [...deviceIdentities],
    orderBy: pick(LAST_MESSAGE_ORDER_BY, sort.key, 'SerialNumber'),
    desc: sort.desc,
    deviceTypeIds: nums(values.types),
    connected: yesNo(values.connected),
    searchValue: text(values.search),
    withNoMessagesOnly: values.withNoMessagesOnly === true,
  };
}

/** Spec §9: CSV exports named CurrentConfiguration and TestingConfiguration with a date stamp. */
export const csvFileName = (label: 'CurrentConfiguration' | 'TestingConfiguration', now = new Date()) => `${label}_${format(now, 'yyyy-MM-dd_HH-mm-ss')}.csv`;
