// The alarm-reports group of the palette search: alarm id, person and account name. Hits are
// titled the way people remember an alarm — who, what, when: 'Jane Smith · SOS Button ·
// 12 Mar 26 14:05:09' (closed date, as the alarm list shows it) — with the alarm id and the account
// below. Within a tier the newest alarm comes first.
import { getHref } from '../../../shared/routes.js';
import { P } from '../../../shared/permissions.js';
import { ALARM_TYPES } from '../../../shared/codes.js';
import { formatAlarmDateTime } from '../../../shared/dates.js';
import { best, hitsOf, joinParts, lookupName, range, rate, textSubstring, type SearchProvider } from '../../lib/search-provider.js';

type AlarmRow = { id: string; alarmId: string; alarmType: number; personFullName: string; customerAccountFullName: string; alarmClosed: string };
const ALARM_COLS = `"id", "alarmId", "alarmType", "personFullName", "customerAccountFullName", "alarmClosed"`;

/** 'Jane Smith · SOS Button · 12 Mar 26 14:05:09' (UK time, an alarm's date format); parts that are missing are left out. */
export const alarmReportTitle = (r: Pick<AlarmRow, 'personFullName' | 'alarmType' | 'alarmClosed'>) =>
  joinParts(r.personFullName, lookupName(ALARM_TYPES, r.alarmType), formatAlarmDateTime(r.alarmClosed, ''));

export const alarmReportSearch: SearchProvider<AlarmRow> = {
  kind: 'alarmReport',
  permission: P.AlarmReportListView,
  prefix: (ctx) => [
    range<AlarmRow>(ctx, 'alarmReports', ALARM_COLS, `lower("alarmId")`),
    range<AlarmRow>(ctx, 'alarmReports', ALARM_COLS, `lower("personFullName")`, { thenBy: `"alarmClosed" desc` }),
    range<AlarmRow>(ctx, 'alarmReports', ALARM_COLS, `lower("customerAccountFullName")`, { thenBy: `"alarmClosed" desc` }),
  ],
  substring: (ctx) =>
    textSubstring<AlarmRow>(
      ctx,
      'alarmReports',
      ALARM_COLS,
      [`lower("alarmId")`, `lower("personFullName")`, `lower("customerAccountFullName")`],
      `"alarmClosed" desc`,
      'alarmId person account',
    ),
  classify: (r, ctx) => best(rate(r.alarmId, ctx.qj, 'alarmId'), rate(r.personFullName, ctx.qj, 'person'), rate(r.customerAccountFullName, ctx.qj, 'account')),
  // newest first within a tier: the score does not depend on field length here
  score: (m) => m.tier + (m.tier === 3 ? 0.9 : 0.5),
  recency: (r) => r.alarmClosed,
  toHits: hitsOf('alarmReport', (row) => ({
    title: alarmReportTitle(row),
    subtitle: joinParts(`Alarm ${row.alarmId}`, row.customerAccountFullName),
    href: getHref('alarmReport', { alarmId: row.alarmId }),
  })),
};
