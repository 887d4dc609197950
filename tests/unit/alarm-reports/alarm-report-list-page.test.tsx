// The alarm report list tab: the default request, the report results view, the 'All Time' rule
// (no type-of-alarms call, the message instead of the chart), export with its confirmation and
// permission, rows as links to the detail tab.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

vi.mock('../../../src/app/api/http', () => ({ http: vi.fn() }));
vi.mock('../../../src/app/ui/confirm-dialog', () => ({ confirm: vi.fn(async () => false) }));
// The print job: record what react-to-print would copy into its frame.
const printed: Element[][] = [];
vi.mock('react-to-print', () => ({
  useReactToPrint: (o: { contentRef: { current: Element | null } }) => () => printed.push([...(o.contentRef.current?.querySelectorAll('.ar-print') ?? [])]),
}));

import { http } from '../../../src/app/api/http';
import { confirm } from '../../../src/app/ui/confirm-dialog';
import { AlarmReportListPage } from '../../../src/app/features/alarm-reports/alarm-report-list-page';
import { MSG } from '../../../src/shared/messages';
import { P } from '../../../src/shared/permissions';
import { DATE_RANGE_OPTIONS, VERIFICATION_TYPES } from '../../../src/shared/codes';
import { renderPage, httpError } from '../persons/helpers';
import { listAnswer, makeDetail, makeRow } from './fixtures';
import { slowMachine } from '../ui/slow-machine';
import { stubGridLayout } from '../ui/layout';

slowMachine();

const httpMock = vi.mocked(http);
type Opts = { method?: string; body?: Record<string, unknown>; query?: unknown };
let list: () => unknown;
let unstub: () => void;

const timeframes = (bands: string[]) => ({ TotalCount: 3, TimeFrames: bands.map((TimeFrame, i) => ({ TimeFrame, Count: i === 0 ? 3 : 0 })) });
beforeEach(() => {
  unstub = stubGridLayout();
  list = () => listAnswer([makeRow(1), makeRow(2)], 2);
  httpMock.mockReset();
  httpMock.mockImplementation(async (path: string, opts?: { query?: unknown }) => {
    switch (path) {
      case '/alarm-report/get-list':
        return list();
      case '/alarm-report/get-date-rage-options':
        return DATE_RANGE_OPTIONS;
      case '/alarm-report/get-verification-types':
        return VERIFICATION_TYPES;
      case '/alarm-report/get-alarm-types':
      case '/alarm-report/get-verification-categories':
      case '/alarm-report/get-controllers':
      case '/api/v1/customer/get-tier-types':
      case '/api/v1/device/get-types':
        return [];
      case '/alarm-report/get-verification-started-timeframes':
        return timeframes(['Under 10 s', '10-40 s', 'Over 40 s']);
      case '/alarm-report/get-verification-completed-timeframes':
        return timeframes(['Under 120 s', '120-180 s', '180-600 s', 'Over 600 s']);
      case '/alarm-report/get-details': {
        const row = [makeRow(1), makeRow(2)].find((r) => r.AlarmId === (opts?.query as { AlarmId: string }).AlarmId)!;
        return makeDetail({ AlarmId: row.AlarmId, Id: row.AlarmReportId, person: { FirstName: row.PersonFullName, LastName: 'X' } });
      }
      case '/alarm-report/get-verification-type-timeframes':
        return { TimeFrames: {}, Labels: [] };
      case '/alarm-report/get-response-targets':
        return {
          TotalCount: 3,
          Within10: { Count: 2, Percent: 66.7, TargetPercent: 80, Met: false },
          Within40: { Count: 3, Percent: 100, TargetPercent: 98.5, Met: true },
          Missed: [],
          MissedTotal: 1,
        };
    }
    throw new Error(`unexpected ${path}`);
  });
  vi.mocked(confirm).mockReset().mockResolvedValue(false);
});
afterEach(() => {
  cleanup();
  unstub();
  vi.restoreAllMocks();
});

const supervisor = [P.AlarmReportListView, P.AlarmReportView, P.AlarmReportAddNote, P.AlarmReportExport];
const controller = [P.AlarmReportListView, P.AlarmReportView, P.AlarmReportAddNote];
const open = (permissions = supervisor) => renderPage(<AlarmReportListPage />, { permissions, route: 'alarmReports' });
const bodies = (path: string) => httpMock.mock.calls.filter(([p]) => p === path).map(([, o]) => (o as Opts).body!);

describe('alarm report list', () => {
  it('asks for page 1, date range 2, verification type 1, closed date descending, and links rows to their detail tab', async () => {
    open();
    const grid = await screen.findByRole('grid', { name: 'Alarm reports' });
    await within(grid).findByText('Person 1');
    expect(bodies('/alarm-report/get-list')[0]).toMatchObject({
      page: 1,
      pageSize: 10,
      alarmClosedDateRangeOption: 2,
      alarmVerificationTypes: [1],
      sortBy: 'AlarmClosedDate',
      sortDescending: true,
    });
    for (const h of ['Date / Time', 'Account Name', 'Tier', 'Trigger', 'Type', 'Category', 'User Name', 'Device', 'Controller'])
      expect(within(grid).getByRole('columnheader', { name: new RegExp(`^${h.replace('/', '\\/')}`) })).toBeInTheDocument();
    const link = within(grid).getAllByRole('link')[0]!;
    expect(link).toHaveAttribute('href', `/alarm-reports/${makeRow(1).AlarmId}`);
    // The charts: both doughnuts with their legend, the response targets.
    expect(screen.getByRole('figure', { name: 'Verification Started' })).toHaveTextContent('Under 10 s');
    expect(screen.getByRole('figure', { name: 'Verification Completed' })).toHaveTextContent('Over 600 s');
    expect(await screen.findByRole('meter', { name: /Within 10 s: 66.7%, target 80%/ })).toBeInTheDocument();
    // the count and its share within the target time, then the target's verdict: never 'NN% missed'
    const shares = screen.getAllByTestId('target-share').map((e) => e.textContent);
    expect(shares).toEqual(['2 of 3 (66.7%) · target 80% missed', '3 of 3 (100%) · target 98.5% met']);
  });

  it("shows 'NO RESULTS' with the prompt when nothing matches, and disables export", async () => {
    list = () => listAnswer([], 0);
    open();
    expect(await screen.findByText('NO RESULTS')).toBeInTheDocument();
    expect(screen.getByText('There are no results for the filters applied.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export' })).toBeDisabled();
  });

  it("shows 'Report generation failed.' when the list fails", async () => {
    list = () => {
      throw httpError(500, 'Something went wrong.');
    };
    open();
    expect(await screen.findByText(MSG.reportGenerationFailed)).toBeInTheDocument();
  });

  it("'All Time' skips the type-of-alarms call and shows the message instead of the chart", async () => {
    const user = userEvent.setup();
    open();
    await screen.findByText('Person 1');
    expect(bodies('/alarm-report/get-verification-type-timeframes')).toHaveLength(1);
    await user.selectOptions(screen.getByLabelText('Alarm closed'), 'All Time');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Graph not available for "All Time" filter.')).toBeInTheDocument();
    await waitFor(() => expect(bodies('/alarm-report/get-list').at(-1)).toMatchObject({ alarmClosedDateRangeOption: 7, page: 1 }));
    expect(bodies('/alarm-report/get-verification-type-timeframes')).toHaveLength(1);
    expect(bodies('/alarm-report/get-verification-started-timeframes').at(-1)).toMatchObject({ alarmClosedDateRangeOption: 7 });
  });

  it("explains a date range plus a 'Closed from' date, and refuses a target over 100 %", async () => {
    const user = userEvent.setup();
    open();
    await screen.findByText('Person 1');
    expect(screen.queryByText(MSG.closedRangeAndFrom)).toBeNull();
    await user.selectOptions(screen.getByLabelText('Alarm closed'), 'Today');
    await user.type(screen.getByLabelText('Closed from'), '19/11/2026');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText(MSG.closedRangeAndFrom)).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Alarm closed'), 'All Time');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(screen.queryByText(MSG.closedRangeAndFrom)).toBeNull());

    await user.selectOptions(screen.getByLabelText('Alarm closed'), 'Today');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    const target = await screen.findByLabelText('Target within 10 s (%)');
    await user.clear(target);
    await user.type(target, '150');
    await user.tab();
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.targetOutOfRange);
    expect(target).toHaveAttribute('aria-invalid', 'true');
    expect(localStorage.getItem('alarmReports.responseTargets') ?? '').not.toContain('150');
    await user.clear(target);
    await user.type(target, '90');
    await user.tab();
    await waitFor(() => expect(screen.queryByText(MSG.targetOutOfRange)).toBeNull());
    expect(target).not.toHaveAttribute('aria-invalid');
  });

  it('export asks the spec question with the count; a controller has no export button', async () => {
    const user = userEvent.setup();
    open();
    await screen.findByText('Person 1');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(confirm).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'Are you sure you want to export data for 2 alarm reports?', confirmLabel: 'Export' }),
    );
    expect(httpMock.mock.calls.some(([p]) => p === '/alarm-report/export-list')).toBe(false);
    cleanup();
    open(controller);
    await screen.findByText('Person 1');
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
  });

  it('prints the selected reports in one job, each its own Closed Alarm Report', async () => {
    const user = userEvent.setup();
    printed.length = 0;
    open();
    const grid = await screen.findByRole('grid', { name: 'Alarm reports' });
    await within(grid).findByText('Person 1');
    const boxes = within(grid).getAllByRole('checkbox', { name: 'Select row' });
    await user.click(boxes[0]!);
    await user.click(boxes[1]!);
    await user.click(screen.getByRole('button', { name: 'Print selected (2)' }));
    await waitFor(() => expect(printed).toHaveLength(1));
    expect(printed[0]!.map((r) => r.querySelector('.ar-print__name')?.textContent)).toEqual(['Person 1 X', 'Person 2 X']);
    expect(httpMock.mock.calls.filter(([p]) => p === '/alarm-report/get-details')).toHaveLength(2);
  });
});
