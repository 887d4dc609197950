// The alarm list's sort keys as SQL, shared by the list query (repo.ts) and the indexes that serve
// it (migrations 013 and 025, from a frozen copy: db/migrations/lib/alarm-list-sort-indexes.ts): an
// index is used only when its expression is the query's, so a change of a sort key here needs a new
// migration that builds its index again. Codes sort by the name shown: a `case` giving each code its position among the sorted
// names (nameRanks in shared/name-order.ts, the rule the device list's sorts use too); text sorts
// case-insensitively in byte order (COLLATE "C" on PostgreSQL).
import { ALARM_TYPES, DEVICE_TYPES, TIER_TYPES, VERIFICATION_CATEGORIES, VERIFICATION_TYPES, type Lookup } from '../../../shared/codes.js';
import { nameRanks, rankCount } from '../../../shared/name-order.js';

/** Sort position by the name shown of the code in `col` (codes sharing a name share it; unknown codes last). */
export function rankSql(col: string, list: Lookup[]) {
  const ranks = nameRanks(list);
  return `case ${col} ${[...ranks].map(([value, rank]) => `when ${value} then ${rank}`).join(' ')} else ${rankCount(ranks)} end`;
}

/**
 * The same positions reversed (Z to A), with empty and unknown codes still last: a nullable code
 * sorted descending orders by this ascending, so one index serves it with its empty values last.
 */
export function reversedRankSql(col: string, list: Lookup[]) {
  const ranks = nameRanks(list);
  const last = rankCount(ranks);
  return `case ${col} ${[...ranks].map(([value, rank]) => `when ${value} then ${last - 1 - rank}`).join(' ')} else ${last} end`;
}

/** Case-insensitive byte-order key of a text column. */
export const lowerSql = (col: string, pg: boolean) => `lower(${col})${pg ? ' collate "C"' : ''}`;

export const CODE_NAMES = {
  tier: TIER_TYPES,
  alarmType: ALARM_TYPES,
  verificationType: VERIFICATION_TYPES,
  verificationCategory: VERIFICATION_CATEGORIES,
  deviceType: DEVICE_TYPES,
} as const;

/**
 * Indexes that hand the list its sorted ids without sorting the range: [name, key list over the
 * unqualified columns]. Codes and text without empty values read them in either direction; tier
 * and device type have one index a direction (their empty values last both ways); the controller
 * sort sorts the filtered rows.
 */
export const SORT_INDEXES = (pg: boolean): [string, string][] => [
  ['alarmReports_sort_type_idx', `(${rankSql('"alarmType"', ALARM_TYPES)}), "id"`],
  ['alarmReports_sort_vtype_idx', `(${rankSql('"verificationType"', VERIFICATION_TYPES)}), "id"`],
  ['alarmReports_sort_category_idx', `(${rankSql('"verificationCategory"', VERIFICATION_CATEGORIES)}), "id"`],
  ['alarmReports_sort_tier_idx', `(${rankSql('"tier"', TIER_TYPES)}), "id"`],
  ['alarmReports_sort_tier_desc_idx', `(${reversedRankSql('"tier"', TIER_TYPES)}), "id" desc`],
  ['alarmReports_sort_device_idx', `(${rankSql('"deviceType"', DEVICE_TYPES)}), "id"`],
  ['alarmReports_sort_device_desc_idx', `(${reversedRankSql('"deviceType"', DEVICE_TYPES)}), "id" desc`],
  ['alarmReports_sort_person_idx', `${lowerSql('"personFullName"', pg)}, "personFullName", "id"`],
  ['alarmReports_sort_account_idx', `${lowerSql('"customerAccountFullName"', pg)}, "customerAccountFullName", "id"`],
];

/** (controller, verification started seconds, closed date): one controller's missed list, slowest first (migration 025). */
export const CONTROLLER_STARTED_INDEX = 'alarmReports_controller_started_idx';
