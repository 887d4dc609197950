// The alarm report list's state → the contract's filter (spec §2 filters, §4 defaults, §5 limits).
// Pure, so the defaults and the mapping are unit-tested.
import { format } from 'date-fns';
import { typedIsoDay } from '../../../shared/dates';
import type { FilterValues } from '../../ui/filter-bar';
import type { SortState } from '../../ui/data-table/types';
import type { AlarmReportListFilter } from '../../../shared/schemas/alarm-reports';
import { DEFAULT_PAGE_SIZE } from '../../../shared/codes';
import { MSG } from '../../../shared/messages';
import { ALL_TIME_OPTION } from './alarm-format';

/** Spec §4: sort by alarm closed date descending. */
export const DEFAULT_ALARM_SORT: SortState = { key: 'AlarmClosedDate', desc: true };
/** Spec §4: date range option 2 (Last 7 days), verification type 1 (Real Incident). */
export const DEFAULT_DATE_RANGE = 2;
export const DEFAULT_ALARM_FILTERS: FilterValues = { dateRange: String(DEFAULT_DATE_RANGE), alarmVerificationTypes: ['1'] };

export type AlarmListState = { page: number; pageSize: number; sort: SortState; filters: FilterValues };
export const INITIAL_ALARM_LIST: AlarmListState = { page: 1, pageSize: DEFAULT_PAGE_SIZE, sort: DEFAULT_ALARM_SORT, filters: DEFAULT_ALARM_FILTERS };

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const numbers = (v: unknown): number[] =>
  strings(v)
    .map(Number)
    .filter((n) => Number.isFinite(n));
const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** 'dd/MM/yyyy' (the date filter's value) → 'yyyy-MM-dd' (the contract's), or null. */
export function toIsoDay(value: unknown): string | null {
  return typeof value === 'string' && value ? typedIsoDay(value) : null;
}

export function dateRangeOf(filters: FilterValues): number {
  const n = Number(filters.dateRange);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_DATE_RANGE;
}

export function toAlarmListFilter(s: AlarmListState): AlarmReportListFilter {
  const f = s.filters;
  return {
    page: s.page,
    pageSize: s.pageSize,
    searchValue: text(f.search),
    customerAccountFullName: text(f.customerAccountFullName),
    personFullName: text(f.personFullName),
    tierTypes: numbers(f.tierTypes),
    alarmTypes: numbers(f.alarmTypes),
    alarmVerificationTypes: numbers(f.alarmVerificationTypes),
    alarmVerificationCategoryTypes: numbers(f.alarmVerificationCategoryTypes),
    deviceTypes: numbers(f.deviceTypes),
    arcControllerIds: strings(f.arcControllerIds),
    alarmClosedDateRangeOption: dateRangeOf(f),
    alarmClosedDateFrom: toIsoDay(f.dateFrom),
    alarmClosedDateTo: toIsoDay(f.dateTo),
    sortBy: s.sort.key as AlarmReportListFilter['sortBy'],
    sortDescending: s.sort.desc,
  };
}

/** Why the list may not start at a typed 'Closed from' date: a date range other than All Time is also set, and the later start wins. */
export function closedRangeNote(filters: FilterValues): string | null {
  return toIsoDay(filters.dateFrom) && dateRangeOf(filters) !== ALL_TIME_OPTION ? MSG.closedRangeAndFrom : null;
}

/** Spec §9: the export file is named with a label plus a timestamp. */
export const alarmExportFileName = (now = new Date()) => `Alarm_Reports_${format(now, 'yyyy-MM-dd_HH-mm-ss')}.xlsx`;
