// The date formats of src/shared/dates.ts: the house DD/MM/YYYY HH:mm (DD/MM/YYYY for a date) for
// every record's date, and the spec's own format for an alarm's dates ('28 Nov 26 13:45:02',
// document 3 §9) wherever they are shown. Walks every place a date is formatted in the source, and
// renders every list's date column and every formatter.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { formatAlarmDateTime, formatDate, formatDateTime } from '../../../src/shared/dates';
import { assetColumns } from '../../../src/app/features/assets/asset-columns';
import { alarmColumns } from '../../../src/app/features/alarm-reports/alarm-columns';
import { personColumns, formatLastLogin } from '../../../src/app/features/persons/person-columns';
import { configurationColumns } from '../../../src/app/features/bulk-manage/current-config-page';
import { auditColumns } from '../../../src/app/features/admin/audit-trail-page';
import { formatDateTime as alarmEventTime } from '../../../src/app/features/alarm-reports/alarm-format';
import { formatDateTime as deviceDateTime } from '../../../src/app/features/assets/asset-format';
import { ukDateTime } from '../../../src/shared/alarm-intelligence';
import { alarmReportTitle } from '../../../src/server/modules/alarm-reports/search';
import { formatNow } from '../../../src/app/shell/error-screen-date';

const ROOT = join(__dirname, '../../../src');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(n) ? [p] : [];
  });

const AT = '2026-11-28T13:45:02Z';
const HOUSE = '28/11/2026 13:45';
const ALARM = '28 Nov 26 13:45:02';

/** Files that compute with London's wall clock (schedules, export cells, chart buckets), showing nothing themselves. */
const WALL_CLOCK_ARITHMETIC = ['shared/london-wall.ts'];
/** date-fns patterns allowed outside dates.ts: file-name stamps only. */
const FILE_NAME_PATTERN = /^yyyy-MM-dd(_HH-mm-ss)?$/;

describe('every place a date is formatted in the source uses the house format', () => {
  const sources = files(ROOT).map((p) => ({ path: relative(ROOT, p).replace(/\\/g, '/'), text: readFileSync(p, 'utf8') }));
  it('no Intl date formats or locale date strings outside the wall-clock arithmetic', () => {
    const offenders = sources
      .filter((f) => !WALL_CLOCK_ARITHMETIC.includes(f.path))
      .filter((f) => /Intl\.DateTimeFormat|toLocaleDateString|toLocaleTimeString/.test(f.text))
      .map((f) => f.path);
    expect(offenders).toEqual([]);
  });
  it('formatShown is given one of the house patterns, never a pattern of its own', () => {
    const offenders = sources.flatMap((f) =>
      [...f.text.matchAll(/(?<!function )formatShown\(([^()]|\([^()]*\))*?,\s*([^,)]+)/g)]
        .map((m) => m[2]!.trim())
        .filter((arg) => !['DATE_FORMAT', 'DATE_TIME_FORMAT', 'ALARM_DATE_TIME_FORMAT'].includes(arg))
        .map((arg) => `${f.path}: ${arg}`),
    );
    expect(offenders).toEqual([]);
  });
  it('date-fns format() with a literal pattern only stamps file names', () => {
    const offenders = sources
      .filter((f) => f.path !== 'shared/dates.ts')
      .flatMap((f) =>
        [...f.text.matchAll(/\bformat\([^,()]+,\s*'([^']+)'/g)]
          .map((m) => m[1]!)
          .filter((p) => !FILE_NAME_PATTERN.test(p))
          .map((p) => `${f.path}: ${p}`),
      );
    expect(offenders).toEqual([]);
  });
});

const text = (node: ReactNode) => render(<>{node}</>).container.textContent;

describe('every list’s date column and every date formatter reads the house format', () => {
  it('list columns', () => {
    const asset = assetColumns().find((c) => c.id === 'lastConfig')!;
    expect(text(asset.cell({ lastConfigurationDate: AT } as never))).toBe('28/11/2026');
    const alarm = alarmColumns().find((c) => c.id === 'closed')!;
    expect(text(alarm.cell({ AlarmClosedDate: AT } as never))).toBe(ALARM);
    const person = personColumns().find((c) => c.id === 'lastLogin')!;
    expect(text(person.cell({ LastLoginDate: AT } as never))).toBe(HOUSE);
    const config = configurationColumns().find((c) => c.id === 'updated')!;
    expect(text(config.cell({ LastUpdated: AT, PendingChanges: 0 } as never))).toBe(HOUSE);
    const audit = auditColumns.find((c) => c.id === 'at')!;
    expect(text(audit.cell({ At: AT } as never))).toBe(HOUSE);
  });
  it('formatters: records (device page, persons, error screen), and an alarm’s dates (report, analysis, palette hit)', () => {
    for (const f of [formatDateTime, deviceDateTime, formatLastLogin, (v: string) => formatNow(new Date(v))]) expect(f(AT)).toBe(HOUSE);
    for (const f of [formatAlarmDateTime, alarmEventTime, ukDateTime]) expect(f(AT)).toBe(ALARM);
    expect(alarmReportTitle({ personFullName: 'Jane Smith', alarmType: 1, alarmClosed: AT })).toMatch(/ · 28 Nov 26 13:45:02$/);
    expect(formatDate(AT)).toBe('28/11/2026');
    // summer time: London is an hour ahead of UTC
    expect(formatDateTime('2026-07-01T12:00:00Z')).toBe('01/07/2026 13:00');
  });
});
