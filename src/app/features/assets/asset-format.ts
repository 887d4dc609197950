// Pure helpers of the asset screens: the filter bar's values → the get-list body, display of
// statuses, dates and yes/no values. Kept free of React so the unit tests drive them directly.
import { format } from 'date-fns';
import { DATE_FORMAT, DATE_TIME_FORMAT, formatShown } from '../../../shared/dates';
import type { FilterValues } from '../../ui/filter-bar';
import type { SortState } from '../../ui/data-table/types';
import { deviceListFilterOf } from '../../api/devices';
import { SEARCH_MIN } from '../../../shared/schemas/devices';

/** Spec §5: the asset search runs only when empty or at least 5 characters long. */
export const ASSET_SEARCH_MIN = SEARCH_MIN;
/** Spec §9: the device list sorts by Serial Number by default, ascending. */
export const DEFAULT_DEVICE_SORT: SortState = { key: 'SerialNumber', desc: false };
/**
 * Spec §9: the last config filter defaults to '0' (All). The bar shows that as its empty 'All'
 * choice, so it does not count as an active filter; the body leaves 0 out (the server's default).
 */
export const EMPTY_ASSET_FILTERS: FilterValues = {};

export const searchTooShort = (search: string) => search.length > 0 && search.length < ASSET_SEARCH_MIN;

/** The filter bar's applied values (plus paging and sort) → the get-list body. Empty filters are left out. */
export const toListFilter = (values: FilterValues, page: number, pageSize: number, sort: SortState) => deviceListFilterOf(values, page, pageSize, sort);

/** A status as the user reads it ('Awaiting Return (Replacement)'; the list's Status sort follows these labels); empty as '-'. */
export { statusLabel } from '../../../shared/name-order';

/** Spec §9: en-GB dates with a 24-hour clock; empty as '-'. */
export const formatDateTime = (value: string | null | undefined): string => formatShown(value, DATE_TIME_FORMAT);
export const formatDate = (value: string | null | undefined): string => formatShown(value, DATE_FORMAT);

export const dash = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '-' : String(v));

/** Export file name: a label plus a timestamp (spec §9). */
export const exportFileName = (label: string, now = new Date()) => `${label}_${format(now, 'yyyy-MM-dd_HH-mm-ss')}.xlsx`;

/** Fleet health (Fleet Health's counts open the list with it). */
export { FLEET_FILTER } from '../../api/fleet';
