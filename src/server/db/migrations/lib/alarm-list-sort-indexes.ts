// Frozen copy of the alarm list's sort indexes (SORT_INDEXES of modules/alarm-reports/list-order.ts)
// as that module built them when the migrations were frozen: the code ranks are written out, so a
// renamed code or a changed name order in the live code does not change what migrations 013 and
// 025 create. See README.md of this folder.

/** [index name, key list over the unqualified columns of alarmReports]. */
export const SORT_INDEXES = (pg: boolean): [string, string][] => [
  ['alarmReports_sort_type_idx', `(case "alarmType" when 1 then 4 when 2 then 1 when 3 then 2 when 4 then 0 when 5 then 3 when 6 then 5 else 6 end), "id"`],
  ['alarmReports_sort_vtype_idx', `(case "verificationType" when 1 then 3 when 2 then 2 when 3 then 1 when 4 then 0 else 4 end), "id"`],
  [
    'alarmReports_sort_category_idx',
    `(case "verificationCategory" when 101 then 16 when 102 then 2 when 103 then 4 when 104 then 15 when 105 then 0 when 106 then 12 when 107 then 9 when 201 then 8 when 202 then 5 when 203 then 11 when 204 then 3 when 205 then 10 when 301 then 1 when 302 then 14 when 401 then 13 when 402 then 7 when 403 then 6 else 17 end), "id"`,
  ],
  ['alarmReports_sort_tier_idx', `(case "tier" when 1 then 0 when 2 then 3 when 3 then 1 when 4 then 2 else 4 end), "id"`],
  ['alarmReports_sort_tier_desc_idx', `(case "tier" when 1 then 3 when 2 then 0 when 3 then 2 when 4 then 1 else 4 end), "id" desc`],
  [
    'alarmReports_sort_device_idx',
    `(case "deviceType" when 3 then 12 when 10 then 5 when 15 then 2 when 20 then 17 when 30 then 16 when 42 then 0 when 52 then 0 when 60 then 15 when 70 then 1 when 140 then 0 when 370 then 6 when 400 then 3 when 620 then 7 when 621 then 8 when 640 then 9 when 740 then 10 when 750 then 11 when 803 then 13 when 804 then 4 when 810 then 14 else 18 end), "id"`,
  ],
  [
    'alarmReports_sort_device_desc_idx',
    `(case "deviceType" when 3 then 5 when 10 then 12 when 15 then 15 when 20 then 0 when 30 then 1 when 42 then 17 when 52 then 17 when 60 then 2 when 70 then 16 when 140 then 17 when 370 then 11 when 400 then 14 when 620 then 10 when 621 then 9 when 640 then 8 when 740 then 7 when 750 then 6 when 803 then 4 when 804 then 13 when 810 then 3 else 18 end), "id" desc`,
  ],
  ['alarmReports_sort_person_idx', `lower("personFullName")${pg ? ' collate "C"' : ''}, "personFullName", "id"`],
  ['alarmReports_sort_account_idx', `lower("customerAccountFullName")${pg ? ' collate "C"' : ''}, "customerAccountFullName", "id"`],
];

/** (controller, verification started seconds, closed date): one controller's missed list, slowest first. */
export const CONTROLLER_STARTED_INDEX = 'alarmReports_controller_started_idx';
