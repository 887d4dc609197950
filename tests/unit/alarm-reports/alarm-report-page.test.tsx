// The Closed Alarm Report tab: what the user sees under each display rule of spec §4, the
// permission differences, the note dialog, the escalation flag, and the printable report's order.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

vi.mock('../../../src/app/api/http', () => ({ http: vi.fn() }));

import { http } from '../../../src/app/api/http';
import { toast } from '../../../src/app/ui/toast';
import { AlarmReportPage } from '../../../src/app/features/alarm-reports/alarm-report-page';
import { PRINT_SECTIONS } from '../../../src/app/features/alarm-reports/print-report';
import { MSG } from '../../../src/shared/messages';
import { P } from '../../../src/shared/permissions';
import type { AlarmReportDetails } from '../../../src/shared/schemas/alarm-reports';
import { renderPage } from '../persons/helpers';
import { ALARM_ID, REPORT_ID, makeDetail } from './fixtures';
import { analyseAlarmReport } from '../../../src/shared/alarm-intelligence';
import type { AnalysisResponse } from '../../../src/shared/schemas/alarm-intelligence';
import { slowMachine } from '../ui/slow-machine';

slowMachine();

const httpMock = vi.mocked(http);
type Opts = { method?: string; body?: unknown; query?: Record<string, unknown> };
let detail: AlarmReportDetails;
let analysis: AnalysisResponse;
const stored = (d: AlarmReportDetails, by: string | null = 'Sam Supervisor') => ({
  ...analyseAlarmReport(d),
  GeneratedAt: '2026-11-23T09:00:00.000Z',
  GeneratedBy: by,
});

beforeEach(() => {
  detail = makeDetail();
  analysis = { Enabled: false, Analysis: null };
  httpMock.mockReset();
  httpMock.mockImplementation(async (path: string, opts?: Opts) => {
    if (path === '/alarm-report/get-details') return detail;
    if (path === '/alarm-report/get-analysis') return analysis;
    if (path === '/alarm-report/generate-analysis') {
      analysis = { Enabled: true, Analysis: stored(detail) };
      return analysis;
    }
    if (path === '/alarm-report/add-note') {
      const b = opts?.body as { note: string };
      return { Id: 'n-new', Note: b.note, CreatedDate: '2026-11-23T08:00:00.000Z', Person: { FullName: 'Sam Supervisor', Roles: ['ArcSupervisorRole'] } };
    }
    if (path === '/alarm-report/update')
      return { Etag: 'etag-2', EscalationPlanFollowed: (opts?.body as { escalationPlanFollowed: boolean }).escalationPlanFollowed };
    throw new Error(`unexpected ${path}`);
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const supervisor = [P.AlarmReportListView, P.AlarmReportView, P.AlarmReportAddNote, P.AlarmReportExport];
const controller = [P.AlarmReportListView, P.AlarmReportView, P.AlarmReportAddNote];
const readOnly = [P.AlarmReportListView, P.AlarmReportView];
const open = async (permissions = supervisor) => {
  const r = renderPage(<AlarmReportPage />, { permissions, route: 'alarmReport', params: { alarmId: ALARM_ID } });
  await screen.findByRole('heading', { level: 1, name: 'Samuel Pritchard' });
  return r;
};
const section = (title: string) => screen.queryByRole('region', { name: title });
const calls = (path: string) => httpMock.mock.calls.filter(([p]) => p === path);

describe('Closed Alarm Report tab', () => {
  it('shows the header, the sections in the spec order and sets the tab title', async () => {
    const { tab } = await open();
    expect(document.querySelector('.ar-detail__header')).toHaveTextContent('Heron Transport Ltd');
    expect(tab.setTitle).toHaveBeenLastCalledWith('Closed Alarm Report Samuel Pritchard');
    const order = [...document.querySelectorAll('.ar-detail > [data-section]')].map((e) => e.getAttribute('data-section'));
    expect(order).toEqual(['summary', 'snapshot', 'user', 'memos', 'devices', 'teams', 'contacts', 'journal', 'notes']);
  });

  it('falls back to the incoming call number when the person has no name', async () => {
    detail = makeDetail({ person: { FirstName: '', LastName: '' } });
    renderPage(<AlarmReportPage />, { permissions: supervisor, route: 'alarmReport', params: { alarmId: ALARM_ID } });
    expect(await screen.findByRole('heading', { level: 1, name: '+44 7491 813523' })).toBeInTheDocument();
  });

  it('hides the instructions panel, duress words, vehicle, devices and contacts when there is nothing to show', async () => {
    detail = makeDetail({
      person: { EmergencyContacts: [], VehicleInformation: { VehicleOwnedOrUsed: false, VehicleRegistration: 'X1', Color: null, Make: null, Model: null } },
      snapshot: { Devices: [] },
    });
    await open();
    expect(section('Alarm instructions and medical information')).toBeNull();
    expect(section('Device details')).toBeNull();
    expect(section('Emergency contacts')).toBeNull();
    expect(within(section('User information')!).queryByText('Vehicle')).toBeNull();
    expect(screen.queryByText('granite')).toBeNull();
  });

  it('shows duress words when active, and the panel for a single reason', async () => {
    detail = makeDetail({
      snapshot: {
        PrimaryTeamAlarmInstruction: { SpecialInstructions: [], DuressWordsActive: true, DuressWords: { Monitor: 'granite', CallPolice: 'orchid' } },
      },
    });
    await open();
    const panel = section('Alarm instructions and medical information')!;
    expect(within(panel).getByText('granite')).toBeInTheDocument();
    expect(within(panel).getByText('orchid')).toBeInTheDocument();
    expect(within(section('User information')!).getByText('NL73 DMB · BMW · 3 Series · Brown')).toBeInTheDocument();
  });

  it('orders escalation plans: primary team first, then the default plan, then by name', async () => {
    await open();
    const plans = within(section('Teams with escalation plan')!).getAllByTestId('escalation-plan');
    expect(plans.map((p) => p.querySelector('strong')?.textContent)).toEqual(['Outreach', 'Beta team', 'Zeta team']);
  });

  it("calls: 'Call failed' for zero duration, whole seconds, the unavailable recording's reason on a disabled play button the keyboard still reaches", async () => {
    await open();
    const [ok, failed] = within(section('Activity journal')!).getAllByTestId('call');
    expect(ok).toHaveTextContent('5m 03s');
    expect(failed).toHaveTextContent('Call failed');
    const plays = within(ok!).getAllByRole('button', { name: /^Play recording/ });
    expect(plays[0]).toBeEnabled();
    expect(plays[1]).toHaveAttribute('aria-disabled', 'true');
    expect(plays[1]).toHaveAttribute('title', 'Recording deleted after the retention period');
    expect(plays[1]).toHaveAccessibleDescription('Recording deleted after the retention period');
    plays[1]!.focus();
    expect(plays[1]).toHaveFocus();
    expect(within(ok!).getByText('Recording deleted after the retention period')).toBeVisible();
    // Unparseable journal JSON renders nothing in Notes; the kinds render their fields.
    const journal = section('Activity journal')!;
    expect(within(journal).getByText('Broken entry').closest('tr')!.querySelectorAll('td')[3]!.textContent).toBe('');
    expect(within(journal).getByText('Trigger:')).toBeInTheDocument();
  });

  it('note author label: the first manager role, else supervisor, else Unknown', async () => {
    await open();
    expect(within(screen.getAllByTestId('note')[0]!).getByText('ArcSupervisorRole')).toBeInTheDocument();
  });

  it('adds a note: blank is refused with the spec message, a note is sent trimmed and shown', async () => {
    const user = userEvent.setup();
    const success = vi.spyOn(toast, 'success');
    await open();
    await user.click(screen.getByRole('button', { name: 'Add Note' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add alarm report note' });
    await user.type(within(dialog).getByLabelText(/Note text/), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText(MSG.enterNoteText)).toBeInTheDocument();
    expect(calls('/alarm-report/add-note')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText(/Note text/), '  Spoke to the user.  ');
    await user.keyboard('{Control>}{Enter}{/Control}'); // Ctrl+Enter submits
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls('/alarm-report/add-note')[0]![1]).toMatchObject({ method: 'POST', body: { alarmReportId: REPORT_ID, note: 'Spoke to the user.' } });
    expect(within(section('Additional notes')!).getByText('Spoke to the user.')).toBeInTheDocument();
    expect(success).toHaveBeenCalledWith(MSG.noteAdded);
  });

  it('ticking escalation plan followed sends the update with the etag and says so', async () => {
    const user = userEvent.setup();
    const success = vi.spyOn(toast, 'success');
    await open();
    const box = screen.getByRole('checkbox', { name: 'Escalation plan followed' });
    expect(box).not.toBeChecked();
    await user.click(box);
    await waitFor(() => expect(box).toBeChecked());
    expect(calls('/alarm-report/update')[0]![1]).toMatchObject({
      method: 'PUT',
      body: { alarmReportId: REPORT_ID, escalationPlanFollowed: true, etag: 'etag-1' },
    });
    expect(success).toHaveBeenCalledWith('Escalation plan followed updated.');
  });

  it('without the note permission: read-only checkbox, no Add Note; without export: no Export to PDF', async () => {
    await open(readOnly);
    expect(screen.getByRole('checkbox', { name: 'Escalation plan followed' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Add Note' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Export to PDF' })).toBeNull();
    cleanup();
    await open(controller);
    expect(screen.getByRole('checkbox', { name: 'Escalation plan followed' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Add Note' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Export to PDF' })).toBeNull();
  });

  it('opens the Full Profile dialog titled with the person', async () => {
    const user = userEvent.setup();
    await open();
    await user.click(screen.getByRole('button', { name: 'Full Profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Samuel Pritchard' });
    expect(within(dialog).getByText('Personal information')).toBeInTheDocument();
    expect(within(dialog).getByText('Physical and medical information')).toBeInTheDocument();
    expect(within(dialog).getByText('180 centimeters')).toBeInTheDocument();
  });

  it('the printable report has the spec order top to bottom, every section expanded, the drawn map', async () => {
    detail = makeDetail({ snapshot: { PrimaryTeamAlarmInstruction: { SpecialInstructions: ['Knock twice'], DuressWordsActive: false, DuressWords: null } } });
    analysis = { Enabled: true, Analysis: stored(detail, null) };
    await open();
    await waitFor(() => expect(within(screen.getByTestId('printable-report')).getByTestId('analysis-summary')).toBeInTheDocument());
    const printable = screen.getByTestId('printable-report');
    expect(within(printable).getByRole('heading', { level: 1, name: 'Closed Alarm Report', hidden: true })).toBeInTheDocument();
    const order = [...printable.querySelectorAll('[data-section]')].map((e) => e.getAttribute('data-section'));
    expect(order).toEqual([...PRINT_SECTIONS]);
    expect(printable.querySelector('details')).toBeNull();
    expect(within(printable).getByTestId('alarm-map-drawn')).toHaveTextContent('51.04312, -1.78798');
    expect(within(printable).getByText('Controller notes')).toBeInTheDocument();
  });
});

describe('Analysis section (alarm report intelligence)', () => {
  it('is absent when intelligence is off for the customer', async () => {
    await open();
    await waitFor(() => expect(calls('/alarm-report/get-analysis')).toHaveLength(1));
    expect(calls('/alarm-report/get-analysis')[0]![1]).toMatchObject({ query: { AlarmReportId: REPORT_ID } });
    expect(section('Analysis')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Generate analysis' })).toBeNull();
    expect(screen.getByTestId('printable-report').querySelector('[data-section="analysis"]')).toBeNull();
  });

  it('generates on demand for a user with the note permission and shows the result', async () => {
    analysis = { Enabled: true, Analysis: null };
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    await open(controller);
    const region = await screen.findByRole('region', { name: 'Analysis' });
    expect(region).toHaveTextContent('No analysis has been generated for this report yet.');
    await user.click(within(region).getByRole('button', { name: 'Generate analysis' }));
    await waitFor(() => expect(calls('/alarm-report/generate-analysis')).toHaveLength(1));
    expect(calls('/alarm-report/generate-analysis')[0]![1]).toMatchObject({ method: 'POST', body: { alarmReportId: REPORT_ID } });
    expect(await within(region).findByTestId('analysis-summary')).toHaveTextContent('Red Alert alarm for Samuel Pritchard raised at 22 Nov 26 21:36:12');
    expect(within(region).getByRole('button', { name: 'Regenerate analysis' })).toBeInTheDocument();
    expect(success).toHaveBeenCalledWith('Analysis generated.');
  });

  it('shows the stored analysis read-only without the note permission: timeline, plan check, anomalies', async () => {
    detail = makeDetail({ EscalationPlanFollowed: true });
    analysis = { Enabled: true, Analysis: stored(detail) };
    await open(readOnly);
    const region = await screen.findByRole('region', { name: 'Analysis' });
    expect(within(region).queryByRole('button', { name: /analysis/i })).toBeNull();
    expect(region).toHaveTextContent('Generated 23 Nov 26 09:00:00 by Sam Supervisor');
    const timeline = within(region).getByRole('table', { name: 'Timeline' });
    expect(within(timeline).getAllByRole('row')).toHaveLength(5);
    expect(timeline).toHaveTextContent('Verification started22 Nov 26 21:36:208s8sUnder 10 sMet');
    const plan = within(region).getByRole('table', { name: 'Escalation plan check' });
    expect(plan).toHaveTextContent('Leah James · +44 1722 334637Not called');
    expect(region).toHaveTextContent("Questions the controller's tick");
    const anomalies = within(region).getByRole('list', { name: 'Anomalies' });
    expect(
      within(anomalies)
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('data-kind')),
    ).toEqual(['recordingUnavailable', 'failedCall']);
  });
});
