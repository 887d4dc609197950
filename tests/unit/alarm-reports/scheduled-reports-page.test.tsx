// The Scheduled Reports page and its dialog: the list shows next and last runs in London time
// (summer and winter), what each schedule sends; the dialog refuses what the shared schema refuses
// with its messages before anything is sent and shows the server's field messages; pause / resume,
// edit and delete call their endpoints (delete only after the confirmation).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

vi.mock('../../../src/app/api/http', () => ({ http: vi.fn(), publicHttp: vi.fn() }));
vi.mock('../../../src/app/ui/confirm-dialog', () => ({ confirm: vi.fn(async () => true) }));

import { http, publicHttp } from '../../../src/app/api/http';
import { confirm } from '../../../src/app/ui/confirm-dialog';
import { dismissAll, getToasts } from '../../../src/app/ui/toast';
import { ScheduledReportsPage } from '../../../src/app/features/alarm-reports/scheduled-reports-page';
import { P } from '../../../src/shared/permissions';
import { SCHEDULE_TEXT, type ScheduleDto } from '../../../src/shared/schemas/schedules';
import { renderPage, httpError } from '../persons/helpers';
import { slowMachine } from '../ui/slow-machine';

slowMachine();

const httpMock = vi.mocked(http);
const SUMMER = 'aaaaaaaa-0000-4000-8000-000000000001';
const WINTER = 'aaaaaaaa-0000-4000-8000-000000000002';
const PAUSED = 'aaaaaaaa-0000-4000-8000-000000000003';

const schedule = (over: Partial<ScheduleDto>): ScheduleDto => ({
  Id: SUMMER,
  Name: 'Weekly falls',
  Frequency: 'weekly',
  DayOfWeek: 1,
  DayOfMonth: null,
  TimeOfDay: '07:00',
  Description: 'Weekly on Monday at 07:00',
  Recipients: ['manager@arc.test', 'supervisor@arc.test'],
  Format: 'xlsx',
  Report: 'alarmList',
  Filters: { alarmVerificationTypes: [1] },
  CustomerName: null,
  Paused: false,
  // 07:00 BST
  NextRunAt: '2026-07-06T06:00:00.000Z',
  LastRun: {
    Id: 7,
    DueAt: '2026-06-29T06:00:00.000Z',
    StartedAt: '2026-06-29T06:00:05.000Z',
    FinishedAt: '2026-06-29T06:00:09.000Z',
    PeriodFrom: '2026-06-22',
    PeriodTo: '2026-06-28',
    Rows: 1234,
    Outcome: 'sent',
    Error: null,
    Attempts: 1,
    Missed: 0,
  },
  CreatedByName: 'Mia Manager',
  Etag: 'etag-1',
  ...over,
});
const SCHEDULES = [
  schedule({}),
  schedule({
    Id: WINTER,
    Name: 'Monthly management',
    Frequency: 'monthly',
    DayOfWeek: null,
    DayOfMonth: 1,
    Description: 'Monthly on the 1st at 07:00',
    Report: 'managementReport',
    Filters: {},
    // 07:00 GMT
    NextRunAt: '2026-12-01T07:00:00.000Z',
    LastRun: null,
    Etag: 'etag-2',
  }),
  schedule({
    Id: PAUSED,
    Name: 'Paused daily',
    Frequency: 'daily',
    DayOfWeek: null,
    Description: 'Daily at 07:00',
    Paused: true,
    NextRunAt: null,
    LastRun: null,
  }),
];

let managementOn = true;
beforeEach(() => {
  managementOn = true;
  dismissAll();
  httpMock.mockReset();
  httpMock.mockImplementation(async (path: string, opts?: { method?: string; body?: unknown }) => {
    if (path === '/alarm-report/schedules' && !opts?.method) return { Enabled: true, Schedules: SCHEDULES };
    const s = SCHEDULES.find((x) => path.includes(x.Id));
    if (s && opts?.method === 'PUT' && path.endsWith('/pause')) return { ...s, Paused: (opts.body as { paused: boolean }).paused };
    if (s && opts?.method === 'PUT') return { ...s, Name: (opts.body as { name: string }).name };
    if (s && opts?.method === 'DELETE') return { Content: { Message: SCHEDULE_TEXT.deleted(s.Name) } };
    throw new Error(`unexpected ${opts?.method ?? 'GET'} ${path}`);
  });
  vi.mocked(publicHttp).mockReset();
  vi.mocked(publicHttp).mockImplementation(async () => ({ Features: [{ FeatureName: 'ExportManagementReportPDF', IsEnabled: managementOn }] }));
  vi.mocked(confirm).mockReset().mockResolvedValue(true);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const renderList = () => renderPage(<ScheduledReportsPage />, { permissions: [P.AlarmReportSchedule], route: 'scheduledReports' });
const rowOf = async (name: string) => (await screen.findByRole('rowheader', { name: new RegExp(name) })).closest('tr')!;
const cell = (row: HTMLElement, label: string) => row.querySelector(`[data-label="${label}"]`)?.textContent;
const calls = (method: string) => httpMock.mock.calls.filter(([, o]) => (o as { method?: string } | undefined)?.method === method);

describe('the list', () => {
  it('shows next and last runs in London time, summer and winter, and what each schedule sends', async () => {
    renderList();
    const summer = await rowOf('Weekly falls');
    expect(cell(summer, 'Next run')).toBe('06/07/2026 07:00');
    expect(cell(summer, 'Last run')).toBe('29/06/2026 07:00 · Sent · 1,234 rows');
    expect(cell(summer, 'Frequency')).toBe('Weekly on Monday at 07:00');
    expect(cell(summer, 'Report')).toBe('Alarm list');
    expect(cell(summer, 'Recipients')).toBe('manager@arc.test, supervisor@arc.test');
    const winter = await rowOf('Monthly management');
    expect(cell(winter, 'Next run')).toBe('01/12/2026 07:00');
    expect(cell(winter, 'Last run')).toBe('Not run yet');
    expect(cell(winter, 'Report')).toBe('Monthly management report · All customers');
    expect(cell(await rowOf('Paused daily'), 'Next run')).toBe('Paused');
  });

  it('says the feature is off, and shows nothing else', async () => {
    httpMock.mockImplementation(async () => ({ Enabled: false, Schedules: [] }));
    renderList();
    expect(await screen.findByRole('note')).toHaveTextContent(SCHEDULE_TEXT.featureOff);
    expect(screen.queryByRole('table')).toBeNull();
  });
});

describe('pause, resume and delete', () => {
  it('pause and resume put the new state to the pause endpoint', async () => {
    const user = userEvent.setup();
    renderList();
    await user.click(within(await rowOf('Weekly falls')).getByRole('button', { name: 'Pause Weekly falls' }));
    await waitFor(() => expect(calls('PUT')).toHaveLength(1));
    expect(calls('PUT')[0]).toEqual([`/alarm-report/schedules/${SUMMER}/pause`, { method: 'PUT', body: { paused: true } }]);
    await waitFor(() => expect(getToasts().map((t) => t.message)).toContain(SCHEDULE_TEXT.paused('Weekly falls')));
    await user.click(within(await rowOf('Paused daily')).getByRole('button', { name: 'Resume Paused daily' }));
    await waitFor(() => expect(calls('PUT')).toHaveLength(2));
    expect(calls('PUT')[1]).toEqual([`/alarm-report/schedules/${PAUSED}/pause`, { method: 'PUT', body: { paused: false } }]);
  });

  it('delete asks first and calls DELETE only when confirmed', async () => {
    const user = userEvent.setup();
    vi.mocked(confirm).mockResolvedValueOnce(false);
    renderList();
    const del = within(await rowOf('Weekly falls')).getByRole('button', { name: 'Delete Weekly falls' });
    await user.click(del);
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    expect(vi.mocked(confirm).mock.calls[0]![0]).toMatchObject({ message: SCHEDULE_TEXT.confirmDelete('Weekly falls') });
    expect(calls('DELETE')).toEqual([]);
    await user.click(del);
    await waitFor(() => expect(calls('DELETE')).toEqual([[`/alarm-report/schedules/${SUMMER}`, { method: 'DELETE' }]]));
    await waitFor(() => expect(getToasts().map((t) => t.message)).toContain(SCHEDULE_TEXT.deleted('Weekly falls')));
  });
});

describe('the edit dialog', () => {
  const openEdit = async (name: string) => {
    const user = userEvent.setup();
    renderList();
    await user.click(within(await rowOf(name)).getByRole('button', { name: `Edit ${name}` }));
    return { user, dialog: within(await screen.findByRole('dialog')) };
  };

  it('saves the changed fields with the etag through PUT', async () => {
    const { user, dialog } = await openEdit('Weekly falls');
    const name = dialog.getByLabelText('Name');
    expect(name).toHaveValue('Weekly falls');
    await user.clear(name);
    await user.type(name, 'Weekly falls and trips');
    await user.selectOptions(dialog.getByLabelText('Day'), 'Friday');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls('PUT')).toHaveLength(1));
    const [path, opts] = calls('PUT')[0]!;
    expect(path).toBe(`/alarm-report/schedules/${SUMMER}`);
    expect((opts as { body: unknown }).body).toEqual({
      name: 'Weekly falls and trips',
      frequency: 'weekly',
      dayOfWeek: 5,
      dayOfMonth: null,
      timeOfDay: '07:00',
      recipients: ['manager@arc.test', 'supervisor@arc.test'],
      format: 'xlsx',
      report: 'alarmList',
      filters: { alarmVerificationTypes: [1] },
      etag: 'etag-1',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('refuses what the shared schema refuses, with its messages under the fields, and sends nothing', async () => {
    const { user, dialog } = await openEdit('Weekly falls');
    await user.clear(dialog.getByLabelText('Name'));
    const time = dialog.getByLabelText('Time (UK, HH:mm)');
    await user.clear(time);
    await user.type(time, '7am');
    await user.clear(dialog.getByLabelText('Recipients'));
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await dialog.findByText(SCHEDULE_TEXT.nameRequired)).toBeInTheDocument();
    expect(dialog.getByText(SCHEDULE_TEXT.badTime)).toBeInTheDocument();
    expect(dialog.getByText(SCHEDULE_TEXT.recipientsRequired)).toBeInTheDocument();
    expect(dialog.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(calls('PUT')).toEqual([]);
  });

  it('the management report is monthly only; it is offered only while its feature is on', async () => {
    const { user, dialog } = await openEdit('Weekly falls');
    await waitFor(() => expect(dialog.getByRole('option', { name: 'Monthly management report' })).toBeInTheDocument());
    await user.selectOptions(dialog.getByLabelText('Report'), 'managementReport');
    expect(dialog.getByText(/The monthly management report of all customers/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await dialog.findByText(SCHEDULE_TEXT.managementMonthly)).toBeInTheDocument();
    expect(calls('PUT')).toEqual([]);
    await user.selectOptions(dialog.getByLabelText('Frequency'), 'monthly');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls('PUT')).toHaveLength(1));
    expect((calls('PUT')[0]![1] as { body: unknown }).body).toMatchObject({ report: 'managementReport', frequency: 'monthly', dayOfMonth: 1, dayOfWeek: null });

    cleanup();
    managementOn = false;
    vi.mocked(publicHttp).mockClear();
    const off = await openEdit('Weekly falls');
    await waitFor(() => expect(vi.mocked(publicHttp)).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(off.dialog.getByRole('option', { name: 'Alarm list' })).toBeInTheDocument();
    expect(off.dialog.queryByRole('option', { name: 'Monthly management report' })).toBeNull();
  });

  it("shows the server's field message under its field", async () => {
    const refusal = 'someone@else.test is not the e-mail address of a person you may send reports to.';
    httpMock.mockImplementation(async (path: string, opts?: { method?: string }) => {
      if (!opts?.method) return { Enabled: true, Schedules: SCHEDULES };
      throw httpError(400, refusal, 'validation', { recipients: refusal });
    });
    const { user, dialog } = await openEdit('Weekly falls');
    await user.type(dialog.getByLabelText('Recipients'), '\nsomeone@else.test');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await dialog.findByText(refusal)).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});
