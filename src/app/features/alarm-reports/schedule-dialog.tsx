// The "Schedule…" dialog: saves the alarm list's current filters as a scheduled report (create),
// or changes a schedule (edit; its saved filters stay). Name, daily / weekly (day) / monthly
// (date: past the month's end means its last day), time of day in UK time, recipients (e-mail
// addresses, one per line or comma-separated; the server checks each is a person the user may
// list), the report (the alarm list, or the monthly management report of the filters' customer or
// of all customers while ExportManagementReportPDF is on) and the format. The shared schema's
// messages show under their fields before anything is sent, the server's after.
import { useEffect, useId, useState } from 'react';
import * as v from 'valibot';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Flex, Text } from '@radix-ui/themes';
import { Dialog } from '../../ui/dialog';
import { FormField } from '../../ui/form-field';
import { toast } from '../../ui/toast';
import { errorFields, errorMessage } from '../../api/query-client';
import { afterScheduleChange, createSchedule, updateSchedule } from '../../api/schedules';
import { featuresQuery, isFeatureOn } from '../../api/reference';
import {
  SCHEDULE_FORMATS,
  SCHEDULE_FORMAT_LABELS,
  SCHEDULE_REPORTS,
  SCHEDULE_REPORT_LABELS,
  TIME_OF_DAY,
  WEEKDAYS,
  describeSchedule,
  type ScheduleFormat,
  type ScheduleFrequency,
  type ScheduleReport,
} from '../../../shared/schedules';
import { SCHEDULE_NAME_MAX, SCHEDULE_TEXT, scheduleCreateBody, type ScheduleDto, type ScheduleInput } from '../../../shared/schemas/schedules';
import { MANAGEMENT_FEATURE } from '../../../shared/schemas/management-report';
import { USAGE_SCHEDULE_FEATURE } from '../../../shared/schemas/usage-report';
import { USAGE_TEXT } from '../../../shared/messages';
import { P } from '../../../shared/permissions';
import { useCan } from '../../state/session';
import type { AlarmReportFilter } from '../../../shared/schemas/alarm-reports';
import { ActionButton } from '../../ui/action-button';

type Draft = {
  name: string;
  frequency: ScheduleFrequency;
  dayOfWeek: string;
  dayOfMonth: string;
  timeOfDay: string;
  recipients: string;
  format: ScheduleFormat;
  report: ScheduleReport;
};

const draftOf = (s?: ScheduleDto): Draft => ({
  name: s?.Name ?? '',
  frequency: s?.Frequency ?? 'daily',
  dayOfWeek: String(s?.DayOfWeek ?? 1),
  dayOfMonth: String(s?.DayOfMonth ?? 1),
  timeOfDay: s?.TimeOfDay ?? '07:00',
  recipients: (s?.Recipients ?? []).join('\n'),
  format: s?.Format ?? 'xlsx',
  report: s?.Report ?? 'alarmList',
});

/** The first message of each field the shared schema refuses (the server words them the same). */
export function draftErrors(body: ScheduleInput): Record<string, string> {
  const r = v.safeParse(scheduleCreateBody, body);
  const errors: Record<string, string> = {};
  if (!r.success)
    for (const issue of r.issues) {
      const key = String(issue.path?.[0]?.key ?? '_');
      errors[key] ??= issue.message;
    }
  return errors;
}

/** Recipients as typed: one per line or separated by commas or semicolons. */
export const splitRecipients = (text: string) =>
  text
    .split(/[\n,;]+/)
    .map((e) => e.trim())
    .filter(Boolean);

/** The filters a schedule keeps (the list's date range is replaced by each run's period). */
export function scheduleFilters(filter: AlarmReportFilter): Record<string, unknown> {
  const { alarmClosedDateRangeOption: _o, alarmClosedDateFrom: _f, alarmClosedDateTo: _t, ...rest } = filter as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(rest).filter(
      ([k, v]) => !['page', 'pageSize', 'sortBy', 'sortDescending'].includes(k) && v !== '' && v !== null && !(Array.isArray(v) && !v.length),
    ),
  );
}

const filterCount = (f: Record<string, unknown>) => Object.keys(f).length;

export function ScheduleDialog({
  open,
  onClose,
  schedule,
  filters,
  defaultRecipient,
}: {
  open: boolean;
  onClose: () => void;
  /** Edit this schedule; without it, create one from `filters`. */
  schedule?: ScheduleDto;
  filters?: AlarmReportFilter;
  defaultRecipient?: string;
}) {
  const qc = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(schedule));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const ids = useId();
  useEffect(() => {
    if (!open) return;
    const d = draftOf(schedule);
    if (!schedule && defaultRecipient) d.recipients = defaultRecipient;
    setDraft(d);
    setErrors({});
  }, [open, schedule, defaultRecipient]);
  const saved = schedule ? schedule.Filters : scheduleFilters(filters ?? {});
  const features = useQuery(featuresQuery());
  const can = useCan();
  // The management report is offered while its feature is on, the usage report while its feature is
  // on to those who may see usage reports (each kept on a schedule that has it).
  const offered = (r: (typeof SCHEDULE_REPORTS)[number]) =>
    r === 'managementReport'
      ? isFeatureOn(features.data, MANAGEMENT_FEATURE)
      : r === 'usageReport'
        ? isFeatureOn(features.data, USAGE_SCHEDULE_FEATURE) && can(P.UsageReportView)
        : true;
  const reports = SCHEDULE_REPORTS.filter((r) => offered(r) || schedule?.Report === r);
  const account = typeof saved.customerAccountFullName === 'string' ? saved.customerAccountFullName : '';

  const bodyOf = (): ScheduleInput => ({
    name: draft.name,
    frequency: draft.frequency,
    dayOfWeek: draft.frequency === 'weekly' ? Number(draft.dayOfWeek) : null,
    dayOfMonth: draft.frequency === 'monthly' ? (draft.dayOfMonth.trim() === '' ? null : Number(draft.dayOfMonth)) : null,
    timeOfDay: draft.timeOfDay,
    recipients: splitRecipients(draft.recipients),
    format: draft.format,
    report: draft.report,
    filters: saved as ScheduleInput['filters'],
  });
  const save = useMutation({
    mutationFn: (body: ScheduleInput) => (schedule ? updateSchedule(schedule.Id, { ...body, etag: schedule.Etag }) : createSchedule(body)),
    onSuccess: async (s) => {
      toast.success(schedule ? SCHEDULE_TEXT.saved(s.Name) : SCHEDULE_TEXT.created(s.Name));
      await afterScheduleChange(qc);
      onClose();
    },
    onError: (err) => {
      const fields = errorFields(err);
      setErrors(Object.keys(fields).length ? fields : { _: errorMessage(err) });
    },
  });
  // A field's message goes once the field changes (its rule is checked again on save).
  const set = (k: keyof Draft) => (e: { target: { value: string } }) => {
    setDraft((d) => ({ ...d, [k]: e.target.value }));
    setErrors((errs) => {
      if (!(k in errs)) return errs;
      const next = { ...errs };
      delete next[k];
      return next;
    });
  };
  /** A required choice of the draft's field `k` among `options` ([value, label]). */
  const choice = (k: 'frequency' | 'dayOfWeek' | 'report' | 'format', label: string, options: readonly (readonly [string, string])[]) => (
    <FormField label={label} required error={errors[k]}>
      {(control) => (
        <select {...control} className="lw-input" value={draft[k]} onChange={set(k)}>
          {options.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
  // Said only for a time that is one ('25:99' is not).
  const preview = (() => {
    if (!TIME_OF_DAY.test(draft.timeOfDay.trim())) return '';
    try {
      return describeSchedule({
        frequency: draft.frequency,
        dayOfWeek: Number(draft.dayOfWeek),
        dayOfMonth: Number(draft.dayOfMonth),
        timeOfDay: draft.timeOfDay,
      });
    } catch {
      return '';
    }
  })();

  return (
    <Dialog.Root open={open} onOpenChange={(o) => !o && !save.isPending && onClose()}>
      <Dialog.Content maxWidth="36rem" aria-describedby={`${ids}-what`}>
        <Dialog.Title>{schedule ? 'Edit scheduled report' : 'Schedule this alarm list'}</Dialog.Title>
        <Text as="p" size="2" color="gray" id={`${ids}-what`} mb="3">
          {draft.report === 'managementReport'
            ? `The monthly management report of ${account ? `the customer '${account}'` : 'all customers'} for the last full month before each run.`
            : draft.report === 'usageReport'
              ? account
                ? `The monthly usage report of the customer '${account}' for the last full month before each run.`
                : USAGE_TEXT.scheduleCustomer
              : filterCount(saved) === 0
                ? 'Every closed alarm report of each period (no filters).'
                : `The alarm reports of each period that match the ${filterCount(saved) === 1 ? 'saved filter' : `${filterCount(saved)} saved filters`} of the alarm list.`}{' '}
          Times are UK time.
        </Text>
        <form
          noValidate
          className="sr-form"
          onSubmit={(e) => {
            e.preventDefault();
            const body = bodyOf();
            const refused = draftErrors(body);
            setErrors(refused);
            if (!Object.keys(refused).length) save.mutate(body);
          }}
        >
          <FormField
            label="Name"
            required
            error={errors.name ?? (draft.name.length > SCHEDULE_NAME_MAX ? SCHEDULE_TEXT.nameTooLong : undefined)}
            hint={`At most ${SCHEDULE_NAME_MAX} characters.`}
          >
            {/* Not cut at the limit as typed or pasted: a longer name is refused with its message. */}
            {(control) => <input {...control} className="lw-input" value={draft.name} autoFocus onChange={set('name')} />}
          </FormField>
          <div className="sr-form__when">
            {choice('frequency', 'Frequency', [
              ['daily', 'Daily'],
              ['weekly', 'Weekly'],
              ['monthly', 'Monthly'],
            ])}
            {draft.frequency === 'weekly' &&
              choice(
                'dayOfWeek',
                'Day',
                WEEKDAYS.map((d, i) => [String(i + 1), d]),
              )}
            {draft.frequency === 'monthly' && (
              <FormField label="Date" required error={errors.dayOfMonth} hint="A date past the month's end runs on its last day.">
                {(control) => <input {...control} className="lw-input" type="number" min={1} max={31} value={draft.dayOfMonth} onChange={set('dayOfMonth')} />}
              </FormField>
            )}
            <FormField label="Time (UK, HH:mm)" required error={errors.timeOfDay}>
              {(control) => (
                <input
                  {...control}
                  className="lw-input"
                  inputMode="numeric"
                  placeholder="HH:mm"
                  maxLength={5}
                  value={draft.timeOfDay}
                  onChange={set('timeOfDay')}
                />
              )}
            </FormField>
          </div>
          <FormField label="Recipients" required error={errors.recipients} hint="E-mail addresses of people you may list, one per line or separated by commas.">
            {(control) => <textarea {...control} className="lw-input sr-form__recipients" rows={3} value={draft.recipients} onChange={set('recipients')} />}
          </FormField>
          {choice(
            'report',
            'Report',
            reports.map((r) => [r, SCHEDULE_REPORT_LABELS[r]]),
          )}
          {choice(
            'format',
            'Format',
            SCHEDULE_FORMATS.map((f) => [f, SCHEDULE_FORMAT_LABELS[f]]),
          )}
          {preview && (
            <Text as="p" size="2" role="status">
              {preview}
            </Text>
          )}
          {(errors._ || errors.filters) && (
            <Text as="p" size="2" color="red" role="alert">
              {errors._ ?? errors.filters}
            </Text>
          )}
          <Flex gap="3" justify="end" mt="4">
            <ActionButton type="button" variant="soft" color="gray" onClick={onClose} disabled={save.isPending}>
              Cancel
            </ActionButton>
            <ActionButton type="submit" busy={save.isPending}>
              {schedule ? 'Save' : 'Save schedule'}
            </ActionButton>
          </Flex>
        </form>
      </Dialog.Content>
    </Dialog.Root>
  );
}
