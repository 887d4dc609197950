// Scheduled Reports (/scheduled-reports, `g h`): every scheduled alarm report with when it runs,
// its next and last run (with the outcome) and recipients; edit, pause / resume, delete (after a
// confirmation) and the run history of one schedule. New schedules are made from the alarm list
// ("Schedule…", Alt+Shift+S), which saves its current filters. With the ScheduledReports feature
// off the page says so and shows nothing else. Lays out by its pane's width (a narrow pane stacks
// each schedule's details instead of the table's columns).
import { useEffect, useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Flex, Heading, Text } from '@radix-ui/themes';
import { useTab } from '../../workspace/tab-context';
import { openRoute } from '../../workspace/actions';
import { getHref } from '../../paths';
import { confirm } from '../../ui/confirm-dialog';
import { toast } from '../../ui/toast';
import { errorMessage } from '../../api/query-client';
import { afterScheduleChange, deleteSchedule, pauseSchedule, scheduleListQuery, scheduleRunsQuery } from '../../api/schedules';
import { formatShown, DATE_FORMAT } from '../../../shared/dates';
import { PAGE_TITLES } from '../../../shared/messages';
import { SCHEDULE_FORMAT_LABELS, SCHEDULE_REPORT_LABELS } from '../../../shared/schedules';
import { MANAGEMENT_TEXT } from '../../../shared/schemas/management-report';
import { SCHEDULE_TEXT, type RunOutcome, type ScheduleDto, type ScheduleRunDto } from '../../../shared/schemas/schedules';
import { ScheduleDialog } from './schedule-dialog';
import '../../ui/data-table/list-widgets.css';
import './scheduled-reports.css';
import { ActionButton } from '../../ui/action-button';
import { keepRowFocus } from '../../ui/row-focus';
import { formatCount } from '../../../shared/numbers';

export const OUTCOME_LABELS: Record<RunOutcome, string> = {
  running: 'Running',
  sending: 'Sending',
  sent: 'Sent',
  held: "Held (customer's e-mail paused)",
  failed: 'Failed',
};
/** What a schedule sends: 'Alarm list', 'Monthly management report' or 'Monthly usage report', with whose (all customers when none is named). */
export const reportText = (s: Pick<ScheduleDto, 'Report' | 'CustomerName'>) =>
  s.Report === 'alarmList' ? SCHEDULE_REPORT_LABELS[s.Report] : `${SCHEDULE_REPORT_LABELS[s.Report]} · ${s.CustomerName ?? MANAGEMENT_TEXT.allCustomers}`;
const day = (iso: string) => formatShown(`${iso}T12:00:00Z`, DATE_FORMAT);
const periodText = (r: ScheduleRunDto) => (r.PeriodFrom === r.PeriodTo ? day(r.PeriodFrom) : `${day(r.PeriodFrom)} – ${day(r.PeriodTo)}`);
const lastRunText = (r: ScheduleRunDto | null) =>
  r ? `${formatShown(r.StartedAt)} · ${OUTCOME_LABELS[r.Outcome]}${r.Rows !== null ? ` · ${formatCount(r.Rows)} rows` : ''}` : 'Not run yet';

/** 'Loading…' while a query waits for its answer, its error when it failed; null once its data is there. */
function notLoaded(q: { isPending: boolean; isError: boolean; error: unknown }): ReactNode {
  if (q.isPending) return <Text size="2">Loading…</Text>;
  if (q.isError)
    return (
      <Text size="2" color="red" role="alert">
        {errorMessage(q.error)}
      </Text>
    );
  return null;
}

function RunHistory({ schedule }: { schedule: ScheduleDto }) {
  const runs = useQuery(scheduleRunsQuery(schedule.Id));
  return (
    <section className="sr-runs" aria-label={`Run history of ${schedule.Name}`}>
      <Heading as="h2" size="3">
        Run history: {schedule.Name}
      </Heading>
      {notLoaded(runs) ??
        (!runs.data?.Runs.length ? (
          <Text size="2">No runs yet.</Text>
        ) : (
          <table className="sr-table">
            <thead>
              <tr>
                <th scope="col">Due</th>
                <th scope="col">Period (closed)</th>
                <th scope="col">Rows</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {runs.data.Runs.map((r) => (
                <tr key={r.Id}>
                  <td data-label="Due">
                    {formatShown(r.DueAt)}
                    {r.Missed > 0 && <Text color="gray"> (caught up {r.Missed} missed)</Text>}
                  </td>
                  <td data-label="Period">{periodText(r)}</td>
                  <td data-label="Rows">{r.Rows === null ? '-' : formatCount(r.Rows)}</td>
                  <td data-label="Outcome">
                    {OUTCOME_LABELS[r.Outcome]}
                    {r.Error && <Text color="gray"> — {r.Error}</Text>}
                    {r.Attempts > 1 && <Text color="gray"> (attempt {r.Attempts})</Text>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </section>
  );
}

export function ScheduledReportsPage() {
  const tab = useTab();
  const { setTitle } = tab;
  useEffect(() => setTitle(PAGE_TITLES.scheduledReports), [setTitle]);
  const qc = useQueryClient();
  const list = useQuery(scheduleListQuery());
  const [editing, setEditing] = useState<ScheduleDto | null>(null);
  const [historyOf, setHistoryOf] = useState<string | null>(null);

  const pause = useMutation({
    mutationFn: (s: ScheduleDto) => pauseSchedule(s.Id, !s.Paused),
    onSuccess: async (s) => {
      toast.success(s.Paused ? SCHEDULE_TEXT.paused(s.Name) : SCHEDULE_TEXT.resumed(s.Name));
      await afterScheduleChange(qc);
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  const remove = useMutation({
    mutationFn: (s: ScheduleDto) => deleteSchedule(s.Id),
    onSuccess: async (r, s) => {
      toast.success(r.Content.Message);
      if (historyOf === s.Id) setHistoryOf(null);
      await afterScheduleChange(qc);
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  const askDelete = async (s: ScheduleDto, button: HTMLElement) => {
    const restoreFocus = keepRowFocus(button);
    const ok = await confirm({
      title: 'Delete scheduled report',
      message: SCHEDULE_TEXT.confirmDelete(s.Name),
      confirmLabel: 'Delete',
      cancelLabel: 'Cancel',
      danger: true,
    });
    if (ok) remove.mutate(s, { onSuccess: restoreFocus });
  };

  const schedules = list.data?.Schedules ?? [];
  const shown = schedules.find((s) => s.Id === historyOf);

  return (
    <div className="sr-page">
      <Flex align="center" justify="between" gap="3" wrap="wrap">
        <Heading as="h1" size="5">
          {PAGE_TITLES.scheduledReports}
        </Heading>
        {list.data?.Enabled && (
          <Button variant="soft" onClick={() => openRoute(getHref('alarmReports'))}>
            New from the alarm list…
          </Button>
        )}
      </Flex>
      {notLoaded(list) ??
        (!list.data?.Enabled ? (
          <Text as="p" size="2" role="note">
            {SCHEDULE_TEXT.featureOff}
          </Text>
        ) : !schedules.length ? (
          <Text as="p" size="2">
            No scheduled reports yet. Open the alarm list, set its filters and choose Schedule… (Alt+Shift+S).
          </Text>
        ) : (
          <table className="sr-table" aria-label="Scheduled reports">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Report</th>
                <th scope="col">Frequency</th>
                <th scope="col">Next run</th>
                <th scope="col">Last run</th>
                <th scope="col">Recipients</th>
                <th scope="col">
                  <span className="lw-sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {schedules.map((s) => (
                <tr key={s.Id} aria-current={historyOf === s.Id ? 'true' : undefined}>
                  <th scope="row" data-label="Name">
                    {s.Name}
                    <Text as="div" size="1" color="gray">
                      {SCHEDULE_FORMAT_LABELS[s.Format]}
                      {s.CustomerName && s.Report === 'alarmList' ? ` · ${s.CustomerName}` : ''}
                    </Text>
                  </th>
                  <td data-label="Report">{reportText(s)}</td>
                  <td data-label="Frequency">{s.Description}</td>
                  <td data-label="Next run">{s.Paused ? 'Paused' : formatShown(s.NextRunAt)}</td>
                  <td data-label="Last run">{lastRunText(s.LastRun)}</td>
                  <td data-label="Recipients" className="sr-recipients">
                    {s.Recipients.join(', ')}
                  </td>
                  <td className="sr-actions-cell">
                    {/* the cell stays a table cell (so it lines up with its row); its buttons flow inside */}
                    <div className="sr-actions">
                      <Button
                        size="1"
                        variant="soft"
                        onClick={() => setHistoryOf(historyOf === s.Id ? null : s.Id)}
                        aria-expanded={historyOf === s.Id}
                        aria-label={`Run history of ${s.Name}`}
                      >
                        History
                      </Button>
                      <Button size="1" variant="soft" onClick={() => setEditing(s)} aria-label={`Edit ${s.Name}`}>
                        Edit
                      </Button>
                      <ActionButton
                        size="1"
                        variant="soft"
                        onClick={() => pause.mutate(s)}
                        busy={pause.isPending && pause.variables?.Id === s.Id}
                        aria-label={`${s.Paused ? 'Resume' : 'Pause'} ${s.Name}`}
                      >
                        {s.Paused ? 'Resume' : 'Pause'}
                      </ActionButton>
                      <ActionButton
                        size="1"
                        variant="soft"
                        color="red"
                        onClick={(e) => void askDelete(s, e.currentTarget)}
                        busy={remove.isPending && remove.variables?.Id === s.Id}
                        aria-label={`Delete ${s.Name}`}
                      >
                        Delete
                      </ActionButton>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      {shown && <RunHistory schedule={shown} />}
      {editing && <ScheduleDialog open onClose={() => setEditing(null)} schedule={editing} />}
    </div>
  );
}
