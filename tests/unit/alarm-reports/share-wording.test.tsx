// Every count-and-percentage label reads one way, formatShare's '391 of 754 (51.9%)': the count
// first and the percentage its share of the total, never a percentage beside a bare count that
// reads as its complement. Walked: the chart legends (alarm list and management report), the
// management report's targets table (this month and the month before) and its escalation
// compliance; and a walk over src/app finds any other label that writes a count beside a percentage
// without formatShare.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { Donut } from '../../../src/app/features/alarm-reports/alarm-charts';
import { PrintableManagementReport } from '../../../src/app/features/alarm-reports/management-report-print';
import type { ManagementReport } from '../../../src/shared/schemas/management-report';

afterEach(cleanup);

const SHARE = /^\d[\d,]* of \d[\d,]* \(\d+(\.\d)?%\)$/;

const target = (count: number, percent: number | null, met: boolean, previousCount: number, previousPercent: number | null) => ({
  Count: count,
  Percent: percent,
  TargetPercent: 80,
  Met: met,
  PreviousCount: previousCount,
  PreviousPercent: previousPercent,
  Change: percent === null || previousPercent === null ? null : Math.round((percent - previousPercent) * 100) / 100,
});
const REPORT: ManagementReport = {
  Month: '2026-10',
  PreviousMonth: '2026-09',
  From: '2026-09-30T23:00:00.000Z',
  To: '2026-11-01T00:00:00.000Z',
  CustomerId: null,
  CustomerName: 'All customers',
  TotalCount: 754,
  PreviousTotalCount: 8,
  ByAlarmType: [{ Value: 1, Name: 'SOS', Count: 754 }],
  ByVerificationType: [{ Value: 1, Name: 'Real Incident', Count: 754 }],
  ByCategory: [{ Value: 101, Name: 'Medical', Count: 754 }],
  VerificationStarted: [
    { TimeFrame: 'Under 10 seconds', Count: 391 },
    { TimeFrame: '10 to 40 seconds', Count: 300 },
    { TimeFrame: 'Over 40 seconds', Count: 63 },
  ],
  VerificationCompleted: [{ TimeFrame: 'Under 120 seconds', Count: 754 }],
  Within10: target(391, 51.86, false, 4, 50),
  Within40: target(691, 91.64, false, 8, 100),
  Missed: [],
  MissedTotal: 363,
  BusiestPersons: [],
  BusiestDevices: [],
  PlanCompliance: { Analysed: 754, WithPlan: 10, Followed: 8, NotFollowed: 2, NoPlan: 744, Agrees: 9, Questions: 1, FollowedPercent: 80 },
};

describe('count-and-percentage labels', () => {
  it("a chart legend gives each slice as a share of the chart's total", () => {
    render(
      <Donut
        title="Verification Started"
        slices={[
          { label: 'Under 10 seconds', count: 391, color: '#000' },
          { label: 'Over 10 seconds', count: 363, color: '#111' },
        ]}
      />,
    );
    const values = [...document.querySelectorAll('.ar-legend__value')].map((e) => e.textContent);
    expect(values).toEqual(['391 of 754 (51.9%)', '363 of 754 (48.1%)']);
    values.forEach((v) => expect(v).toMatch(SHARE));
  });

  it("the management report's targets table and compliance read count of total (percentage)", () => {
    render(<PrintableManagementReport r={REPORT} />);
    const table = screen.getByRole('table', { name: 'Response targets' });
    const row = (name: string) => within(table).getByRole('rowheader', { name }).closest('tr')!.querySelectorAll('td');
    const ten = row('Verification started within 10 s');
    expect(ten[0]!.textContent).toBe('391 of 754 (51.9%) · Missed');
    expect(ten[2]!.textContent).toBe('4 of 8 (50%)');
    const forty = row('Verification started within 40 s');
    expect(forty[0]!.textContent).toBe('691 of 754 (91.6%) · Missed');
    expect(forty[2]!.textContent).toBe('8 of 8 (100%)');
    // the legends of the report's doughnuts too
    const legends = [...document.querySelectorAll('.ar-legend__value')].map((e) => e.textContent);
    expect(legends.length).toBeGreaterThan(0);
    legends.forEach((v) => expect(v).toMatch(SHARE));
    expect(screen.getByTestId('plan-compliance').textContent).toContain('had an escalation plan, followed in 8 of 10 (80%).');
  });

  it('no other screen writes a count beside a percentage without formatShare', () => {
    const ROOT = join(__dirname, '../../../src/app');
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => {
        const p = join(dir, n);
        return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(n) ? [p] : [];
      });
    const count = /formatCount\(|toLocaleString\(/;
    const percent = /formatPercent\(|percentText\(|\)\}%|%\)/;
    const found = files(ROOT).flatMap((p) =>
      readFileSync(p, 'utf8')
        .split('\n')
        .map((l, i) => [l, i + 1] as const)
        .filter(([l]) => !l.trim().startsWith('//') && !l.trim().startsWith('*') && count.test(l) && percent.test(l))
        .map(([, n]) => `${relative(ROOT, p)}:${n}`),
    );
    expect(found).toEqual([]);
  });
});
