// The management report as a scheduled e-mail's .xlsx (src/server/modules/alarm-reports/
// management-export.ts): every section of the printed report in its order, with the report's
// numbers, and the workbook read back with an independent reader.
import { describe, expect, it } from 'vitest';
import ExcelJS from '@zurmokeeper/exceljs';
import { MANAGEMENT_SECTIONS, type ManagementReport } from '../../../src/shared/schemas/management-report';
import { MANAGEMENT_SHEET, managementReportXlsx, managementRows } from '../../../src/server/modules/alarm-reports/management-export';

const target = (count: number, percent: number | null, met: boolean) => ({
  Count: count,
  Percent: percent,
  TargetPercent: 80,
  Met: met,
  PreviousCount: 4,
  PreviousPercent: 50,
  Change: percent === null ? null : percent - 50,
});
const REPORT: ManagementReport = {
  Month: '2026-10',
  PreviousMonth: '2026-09',
  From: '2026-09-30T23:00:00.000Z',
  To: '2026-11-01T00:00:00.000Z',
  CustomerId: null,
  CustomerName: 'All customers',
  TotalCount: 12,
  PreviousTotalCount: 8,
  ByAlarmType: [
    { Value: 1, Name: 'SOS', Count: 7 },
    { Value: 2, Name: 'Fall', Count: 5 },
  ],
  ByVerificationType: [{ Value: 1, Name: 'Real Incident', Count: 12 }],
  ByCategory: [{ Value: 101, Name: 'Medical', Count: 12 }],
  VerificationStarted: [
    { TimeFrame: 'Under 10 seconds', Count: 9 },
    { TimeFrame: '10 to 40 seconds', Count: 2 },
    { TimeFrame: 'Over 40 seconds', Count: 1 },
  ],
  VerificationCompleted: [{ TimeFrame: 'Under 120 seconds', Count: 12 }],
  Within10: target(9, 75, false),
  Within40: target(11, 91.67, false),
  Missed: [
    {
      AlarmReportId: 'r1',
      AlarmId: 'a1',
      AlarmClosedDate: '2026-10-10T12:00:00.000Z',
      PersonFullName: 'Ann Able',
      CustomerAccountFullName: 'Acme Care Ltd',
      VerificationStartedSeconds: 45,
      Over40: true,
    },
  ],
  MissedTotal: 3,
  BusiestPersons: [{ PersonId: 'p1', FullName: 'Ann Able', Count: 6 }],
  BusiestDevices: [{ Serial: 'SN-1', DeviceType: 'SG620', Count: 4 }],
  PlanCompliance: { Analysed: 10, WithPlan: 8, Followed: 6, NotFollowed: 2, NoPlan: 2, Agrees: 7, Questions: 1, FollowedPercent: 75 },
};

describe('managementRows', () => {
  const rows = managementRows(REPORT);
  const value = (label: string) => rows.find((r) => r[0] === label)?.slice(1);
  it("holds every section heading of the printed report, in the print's order", () => {
    const headings = rows.filter((r) => r.length === 1 && (MANAGEMENT_SECTIONS as readonly unknown[]).includes(r[0])).map((r) => r[0]);
    expect(headings).toEqual([...MANAGEMENT_SECTIONS]);
  });
  it("carries the report's numbers", () => {
    expect(value('Customer')).toEqual(['All customers']);
    expect(value('Month')).toEqual(['October 2026']);
    expect(value('Alarms')).toEqual([12]);
    expect(value('Alarms in September 2026')).toEqual([8]);
    expect(value('SOS')).toEqual([7]);
    expect(value('Over 40 seconds')).toEqual([1]);
    expect(value('Verification started within 10 s')).toEqual([9, 75, 80, 'Missed', 50, 25]);
    expect(value('Missed')).toEqual([3, 'the 1 slowest are listed']);
    expect(value('a1')).toEqual(['10/10/2026 13:00', 'Ann Able', 'Acme Care Ltd', 45, 'Yes']);
    expect(value('SN-1')).toEqual(['SG620', 4]);
    expect(value('Followed %')).toEqual([75]);
  });
  it('says so when there are no compliance figures (alarm report intelligence off)', () => {
    const off = managementRows({ ...REPORT, PlanCompliance: null });
    expect(off.at(-1)).toEqual(['Alarm report intelligence is off: no compliance figures.']);
  });
});

describe('managementReportXlsx', () => {
  it('writes one sheet that reads back with the same cells', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await managementReportXlsx(REPORT)) as never);
    expect(wb.worksheets.map((w) => w.name)).toEqual([MANAGEMENT_SHEET]);
    const read: unknown[][] = [];
    wb.getWorksheet(MANAGEMENT_SHEET)!.eachRow((r) => read.push((r.values as unknown[]).slice(1)));
    expect(read).toEqual(managementRows(REPORT).filter((r) => r.length > 0));
  });
});
