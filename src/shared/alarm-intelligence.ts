// Alarm report intelligence: the Analysis section of a closed alarm report, computed by fixed rules
// from the report's own detail document (its stored profile snapshot, calls, activity journal,
// notes, recordings and verification seconds). Pure and deterministic: the same document gives the
// same analysis, so the stored copy printed later is the one generated.
//
// - Timeline: raised → verification started → verification completed → closed. The verification
//   seconds count from the alarm being raised. Started and completed are placed in the chart bands
//   of spec document 3 (STARTED_BANDS, COMPLETED_BANDS) and started is held against the response
//   targets (within the lower edges of the '10-40 s' and 'Over 40 s' bands, inclusive, as the
//   response-target figures count them).
// - Escalation plan check: the plan in force is the first plan as the report displays it
//   (sortEscalationPlans: primary team first, default plan first, then by name). Each instruction's
//   contact counts as called when a call of the report (Calls, or a 'call' entry of the activity
//   journal) went to or came from its number (compared as international digits, a national number
//   read in the contact's country); its outcome is 'Answered' when any such call lasted,
//   'Call failed' when every one had zero duration, 'Not called' otherwise. The plan counts as
//   followed when every instruction's contact was called; the check agrees with the controller's
//   'Escalation plan followed' tick when the two say the same, and questions it otherwise.
// - Anomalies: failed calls, unavailable recordings with their reason, no notes on a Real Incident,
//   duress words active, verification started outside the target.
// - Summary: two to four en-GB sentences with Europe/London times.
import { bandOf, COMPLETED_BANDS, STARTED_BANDS, type AlarmReportDetails } from './schemas/alarm-reports.js';
import { formatPhone } from './phone.js';
import { formatAlarmDateTime } from './dates.js';

/** Times in the analysis are shown on the UK clock. */
export const UK_TIME_ZONE = 'Europe/London';

/** Response targets per alarm: verification started within these seconds (inclusive), the lower edges of the next bands. */
export const RESPONSE_LIMITS = { first: STARTED_BANDS[1].from, second: STARTED_BANDS[2].from } as const;

/** Verification type value of a Real Incident (spec document 3 §9). */
const REAL_INCIDENT = 1;

export type TimelineStep = {
  Step: 'Raised' | 'Verification started' | 'Verification completed' | 'Closed';
  At: string;
  /** Seconds since the alarm was raised. */
  Seconds: number;
  /** Seconds since the previous step (0 for Raised). */
  SincePrevious: number;
  /** The chart band, for the two verification steps. */
  Band: string | null;
  /** Held against the response target (verification started only): true when within the first limit. */
  WithinTarget: boolean | null;
};
export type PlanOutcome = 'Answered' | 'Call failed' | 'Not called';
export type PlanInstructionCheck = {
  Instruction: string;
  ContactName: string;
  Number: string;
  Outcome: PlanOutcome;
  /** Start of the first matching call, or null. */
  CalledAt: string | null;
  Calls: number;
};
export type PlanCheck = {
  TeamName: string;
  PlanName: string;
  Instructions: PlanInstructionCheck[];
  /** Every instruction's contact was called. */
  Followed: boolean;
  /** The controller's 'Escalation plan followed' tick. */
  Ticked: boolean;
  Verdict: 'Agrees' | 'Questions';
};
export type AnomalyKind = 'failedCall' | 'recordingUnavailable' | 'noNotesOnRealIncident' | 'duressWordsActive' | 'verificationOutsideTarget';
export type Anomaly = { Kind: AnomalyKind; Text: string };
export type AlarmAnalysis = {
  Timeline: TimelineStep[];
  /** Null when the snapshot holds no escalation plan. */
  PlanCheck: PlanCheck | null;
  Anomalies: Anomaly[];
  Summary: string;
};

/** Everything the rules read from the detail document (the detail document fits as it is). */
export type AnalysisInput = Pick<
  AlarmReportDetails,
  'AlarmStared' | 'AlarmClosed' | 'AlarmType' | 'VerificationType' | 'EscalationPlanFollowed' | 'VerificationStartedSeconds' | 'VerificationCompletedSeconds'
> & {
  Calls: readonly Pick<AlarmReportDetails['Calls'][number], 'StartTime' | 'Duration' | 'Line' | 'Number' | 'Records'>[];
  ProfileSnapshot: {
    Person: { FirstName: string; LastName: string };
    PrimaryTeamAlarmInstruction: { DuressWordsActive: boolean } | null;
    TeamWithEscalationPlan: AlarmReportDetails['ProfileSnapshot']['TeamWithEscalationPlan'];
  };
  ActivityJournal: {
    AdditionalNoteList: readonly unknown[];
    Activities: readonly Pick<AlarmReportDetails['ActivityJournal']['Activities'][number], 'Date' | 'CustomProperties'>[];
  };
};

export const ANALYSIS_TEXT = {
  notCalled: 'Not called',
  callFailed: 'Call failed',
  answered: 'Answered',
  agrees: "agrees with the controller's 'Escalation plan followed' tick",
  questions: "questions the controller's 'Escalation plan followed' tick",
} as const;

type TeamPlan = {
  Team?: { Name?: string | null; PrimaryGroup?: boolean | null } | null;
  EscalationPlan?: { Name?: string | null } | null;
  DefaultEscalationPlan?: boolean | null;
};

/** Teams flagged as primary group first; then the default plan first, then by plan name. Stable, does not mutate. */
export function sortEscalationPlans<T extends TeamPlan>(list: readonly T[] | null | undefined): T[] {
  const rank = (t: T) => (t.Team?.PrimaryGroup ? 0 : 1);
  const def = (t: T) => (t.DefaultEscalationPlan ? 0 : 1);
  return [...(list ?? [])].sort(
    (a, b) =>
      rank(a) - rank(b) || def(a) - def(b) || (a.EscalationPlan?.Name ?? '').localeCompare(b.EscalationPlan?.Name ?? '', 'en-GB', { sensitivity: 'base' }),
  );
}

/** An instant on the UK clock in the report's date format: '22 Nov 26 21:47:05' (src/shared/dates.ts). */
export function ukDateTime(iso: string): string {
  return formatAlarmDateTime(iso);
}

/** Whole seconds as '2m 05s' / '42s' / '1h 02m 05s'. */
export function spokenDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  if (h) return `${h}h ${pad(m)}m ${pad(s % 60)}s`;
  if (m) return `${m}m ${pad(s % 60)}s`;
  return `${s}s`;
}

/**
 * A phone number as international digits: '+44 7700 900123', '07700 900123' (with country code
 * '44') and '7700900123' (with '44') all give '447700900123'.
 */
export function phoneKey(value: string | null | undefined, countryCode?: string | null): string {
  const raw = (value ?? '').trim();
  const d = raw.replace(/\D/g, '');
  if (!d) return '';
  if (raw.startsWith('+')) return d;
  if (d.startsWith('00')) return d.slice(2);
  const cc = (countryCode ?? '').replace(/\D/g, '');
  if (!cc) return d;
  if (d.startsWith('0')) return cc + d.slice(1);
  return d.startsWith(cc) && d.length > 10 ? d : cc + d;
}

type CallSeen = { number: string; at: string; duration: number };

/** Every call of the report with its number as written: Calls, then the activity journal's 'call' entries (to or from). */
function callsSeen(input: AnalysisInput): CallSeen[] {
  const out: CallSeen[] = input.Calls.map((c) => ({ number: c.Number, at: c.StartTime, duration: Number(c.Duration) || 0 }));
  for (const a of input.ActivityJournal.Activities) {
    let p: unknown;
    try {
      p = JSON.parse(a.CustomProperties);
    } catch {
      continue;
    }
    if (!p || typeof p !== 'object' || (p as { kind?: unknown }).kind !== 'call') continue;
    const { to, from, duration } = p as { to?: unknown; from?: unknown; duration?: unknown };
    const dur = typeof duration === 'number' && Number.isFinite(duration) ? duration : 0;
    for (const n of [to, from]) if (typeof n === 'string' && n.trim()) out.push({ number: n, at: a.Date, duration: dur });
  }
  return out;
}

function planCheck(input: AnalysisInput): PlanCheck | null {
  const plan = sortEscalationPlans(input.ProfileSnapshot.TeamWithEscalationPlan)[0];
  if (!plan) return null;
  const seen = callsSeen(input);
  const instructions = plan.EscalationPlan.Instructions.map((ins): PlanInstructionCheck => {
    const key = phoneKey(ins.Contact.Value, ins.Contact.CountryCode);
    // a call's number written nationally is read in the contact's country
    const matched = key ? seen.filter((s) => phoneKey(s.number, ins.Contact.CountryCode) === key).sort((a, b) => a.at.localeCompare(b.at)) : [];
    const outcome: PlanOutcome = !matched.length ? 'Not called' : matched.some((m) => m.duration > 0) ? 'Answered' : 'Call failed';
    return {
      Instruction: ins.Instruction,
      ContactName: ins.Contact.InstructionContactName,
      // the whole number with its dial code, as every phone number reads ('+44 7700 900123')
      Number: formatPhone(ins.Contact.Value, ins.Contact.CountryCode),
      Outcome: outcome,
      CalledAt: matched[0]?.at ?? null,
      Calls: matched.length,
    };
  });
  const followed = instructions.every((i) => i.Outcome !== 'Not called');
  const ticked = input.EscalationPlanFollowed;
  return {
    TeamName: plan.Team.Name,
    PlanName: plan.EscalationPlan.Name,
    Instructions: instructions,
    Followed: followed,
    Ticked: ticked,
    Verdict: followed === ticked ? 'Agrees' : 'Questions',
  };
}

const addSeconds = (iso: string, s: number) => new Date(Date.parse(iso) + s * 1000).toISOString();
const between = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 1000);

function timeline(input: AnalysisInput): TimelineStep[] {
  const raised = input.AlarmStared;
  const started = input.VerificationStartedSeconds;
  const completed = input.VerificationCompletedSeconds;
  const closedSeconds = between(raised, input.AlarmClosed);
  return [
    { Step: 'Raised', At: raised, Seconds: 0, SincePrevious: 0, Band: null, WithinTarget: null },
    {
      Step: 'Verification started',
      At: addSeconds(raised, started),
      Seconds: started,
      SincePrevious: started,
      Band: bandOf(STARTED_BANDS, started).TimeFrame,
      WithinTarget: started <= RESPONSE_LIMITS.first,
    },
    {
      Step: 'Verification completed',
      At: addSeconds(raised, completed),
      Seconds: completed,
      SincePrevious: completed - started,
      Band: bandOf(COMPLETED_BANDS, completed).TimeFrame,
      WithinTarget: null,
    },
    { Step: 'Closed', At: input.AlarmClosed, Seconds: closedSeconds, SincePrevious: closedSeconds - completed, Band: null, WithinTarget: null },
  ];
}

function anomalies(input: AnalysisInput): Anomaly[] {
  const out: Anomaly[] = [];
  for (const c of input.Calls) {
    if (!(Number(c.Duration) > 0))
      out.push({ Kind: 'failedCall', Text: `Call failed: ${c.Line} call with ${formatPhone(c.Number)} at ${ukDateTime(c.StartTime)}.` });
    for (const r of c.Records)
      if (r.Unavailable)
        out.push({
          Kind: 'recordingUnavailable',
          Text: `Recording of the ${c.Line} call at ${ukDateTime(c.StartTime)} is unavailable: ${r.Reason?.trim() || 'no reason given'}.`,
        });
  }
  if (input.VerificationType.Value === REAL_INCIDENT && input.ActivityJournal.AdditionalNoteList.length === 0)
    out.push({ Kind: 'noNotesOnRealIncident', Text: 'No controller notes on a Real Incident.' });
  if (input.ProfileSnapshot.PrimaryTeamAlarmInstruction?.DuressWordsActive === true)
    out.push({ Kind: 'duressWordsActive', Text: 'Duress words were active for this person.' });
  const s = input.VerificationStartedSeconds;
  if (s > RESPONSE_LIMITS.first)
    out.push({
      Kind: 'verificationOutsideTarget',
      Text:
        s > RESPONSE_LIMITS.second
          ? `Verification started after ${spokenDuration(s)}, over the ${RESPONSE_LIMITS.second} s limit.`
          : `Verification started after ${spokenDuration(s)}, outside the ${RESPONSE_LIMITS.first} s target.`,
    });
  return out;
}

const ANOMALY_NAMES: Record<AnomalyKind, [string, string]> = {
  failedCall: ['failed call', 'failed calls'],
  recordingUnavailable: ['unavailable recording', 'unavailable recordings'],
  noNotesOnRealIncident: ['no notes on a Real Incident', 'no notes on a Real Incident'],
  duressWordsActive: ['duress words active', 'duress words active'],
  verificationOutsideTarget: ['verification outside target', 'verification outside target'],
};
const KIND_ORDER: AnomalyKind[] = ['failedCall', 'recordingUnavailable', 'noNotesOnRealIncident', 'duressWordsActive', 'verificationOutsideTarget'];

function summary(input: AnalysisInput, steps: TimelineStep[], plan: PlanCheck | null, found: Anomaly[]): string {
  const person = `${input.ProfileSnapshot.Person.FirstName} ${input.ProfileSnapshot.Person.LastName}`.trim();
  const [, started, completed, closed] = steps as [TimelineStep, TimelineStep, TimelineStep, TimelineStep];
  const sentences = [
    `${input.AlarmType.Name} alarm${person ? ` for ${person}` : ''} raised at ${ukDateTime(input.AlarmStared)} and closed at ${ukDateTime(input.AlarmClosed)}, ${spokenDuration(closed.Seconds)} later.`,
    `Verification started after ${spokenDuration(started.Seconds)} (${started.Band}, ${started.WithinTarget ? 'within' : 'outside'} the ${RESPONSE_LIMITS.first} s target) and was completed after ${spokenDuration(completed.Seconds)} (${completed.Band}).`,
  ];
  if (plan) {
    const total = plan.Instructions.length;
    const called = plan.Instructions.filter((i) => i.Outcome !== 'Not called').length;
    sentences.push(
      `${called} of ${total} contact${total === 1 ? '' : 's'} of the escalation plan '${plan.PlanName}' ${called === 1 ? 'was' : 'were'} called; this ${plan.Verdict === 'Agrees' ? ANALYSIS_TEXT.agrees : ANALYSIS_TEXT.questions}.`,
    );
  } else sentences.push('No escalation plan was in force.');
  if (found.length) {
    const parts = KIND_ORDER.flatMap((k) => {
      const n = found.filter((a) => a.Kind === k).length;
      if (!n) return [];
      const [one, many] = ANOMALY_NAMES[k];
      return [k === 'failedCall' || k === 'recordingUnavailable' ? `${n} ${n === 1 ? one : many}` : one];
    });
    sentences.push(`To review: ${parts.join(', ')}.`);
  } else sentences.push('No anomalies were found.');
  return sentences.join(' ');
}

/** The analysis of one closed alarm report. */
export function analyseAlarmReport(input: AnalysisInput): AlarmAnalysis {
  const steps = timeline(input);
  const plan = planCheck(input);
  const found = anomalies(input);
  return { Timeline: steps, PlanCheck: plan, Anomalies: found, Summary: summary(input, steps, plan, found) };
}
