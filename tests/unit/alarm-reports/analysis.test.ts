// The rules of the Analysis section: timeline bands, each escalation plan check outcome, each
// anomaly and the summary, from the detail document the server reads back.
import { describe, expect, it } from 'vitest';
import { analyseAlarmReport, phoneKey, ukDateTime, type AnalysisInput } from '../../../src/shared/alarm-intelligence';
import { makeDetail } from './fixtures';

type Detail = ReturnType<typeof makeDetail>;
const base = makeDetail();
const planCall = (over: Partial<Detail['Calls'][number]> = {}): Detail['Calls'][number] => ({
  ...base.Calls[1]!,
  Id: 'a3333333-3333-4333-8333-333333333333',
  StartTime: '2026-11-22T21:45:00.000Z',
  EndTime: '2026-11-22T21:46:00.000Z',
  Duration: 60,
  Number: '+441722334637',
  ...over,
});
const journalCall = (props: Record<string, unknown>, date = '2026-11-22T21:44:00.000Z') => ({
  Id: 'j9',
  Date: date,
  Creator: 'Katie Alexander',
  Details: 'Outbound Second Line',
  CustomProperties: JSON.stringify({ kind: 'call', ...props }),
});
const analyse = (d: AnalysisInput) => analyseAlarmReport(d);
const kinds = (d: AnalysisInput) => analyse(d).Anomalies.map((a) => a.Kind);

describe('timeline', () => {
  it('places each step with its time, duration and band', () => {
    const t = analyse(base).Timeline;
    expect(t.map((s) => s.Step)).toEqual(['Raised', 'Verification started', 'Verification completed', 'Closed']);
    expect(t.map((s) => s.At)).toEqual(['2026-11-22T21:36:12.000Z', '2026-11-22T21:36:20.000Z', '2026-11-22T21:41:12.000Z', '2026-11-22T21:53:12.000Z']);
    expect(t.map((s) => s.Seconds)).toEqual([0, 8, 300, 1020]);
    expect(t.map((s) => s.SincePrevious)).toEqual([0, 8, 292, 720]);
    expect(t[1]).toMatchObject({ Band: 'Under 10 s', WithinTarget: true });
    expect(t[2]).toMatchObject({ Band: '180-600 s', WithinTarget: null });
  });
  it('uses the chart band edges: exactly 10 s is 10-40 s but still within the target; exactly 600 s is Over 600 s', () => {
    const t = analyse(makeDetail({ VerificationStartedSeconds: 10, VerificationCompletedSeconds: 600 })).Timeline;
    expect(t[1]).toMatchObject({ Band: '10-40 s', WithinTarget: true });
    expect(t[2]!.Band).toBe('Over 600 s');
    expect(analyse(makeDetail({ VerificationStartedSeconds: 11 })).Timeline[1]).toMatchObject({ Band: '10-40 s', WithinTarget: false });
    expect(analyse(makeDetail({ VerificationStartedSeconds: 40 })).Timeline[1]!.Band).toBe('Over 40 s');
  });
});

describe('escalation plan check', () => {
  it('takes the plan in force as displayed (primary team first) and reports a contact never called', () => {
    const p = analyse(base).PlanCheck!;
    expect(p.TeamName).toBe('Outreach');
    expect(p.PlanName).toBe('Out of hours escalation');
    expect(p.Instructions).toEqual([
      { Instruction: 'Call the on-call officer.', ContactName: 'Leah James', Number: '+44 1722 334637', Outcome: 'Not called', CalledAt: null, Calls: 0 },
    ]);
    expect(p).toMatchObject({ Followed: false, Ticked: false, Verdict: 'Agrees' });
  });
  it('questions a tick when a contact was not called', () => {
    expect(analyse(makeDetail({ EscalationPlanFollowed: true })).PlanCheck).toMatchObject({ Followed: false, Ticked: true, Verdict: 'Questions' });
  });
  it('matches a call by number in any format and agrees with the tick when every contact answered', () => {
    const d = makeDetail({ EscalationPlanFollowed: true, Calls: [...base.Calls, planCall({ Number: '01722 334637' })] });
    const p = analyse(d).PlanCheck!;
    expect(p.Instructions[0]).toMatchObject({ Outcome: 'Answered', CalledAt: '2026-11-22T21:45:00.000Z', Calls: 1 });
    expect(p).toMatchObject({ Followed: true, Verdict: 'Agrees' });
  });
  it("says 'Call failed' when every call to the contact had zero duration (the contact was still called)", () => {
    const d = makeDetail({ EscalationPlanFollowed: true, Calls: [...base.Calls, planCall({ Duration: 0 })] });
    expect(analyse(d).PlanCheck).toMatchObject({ Instructions: [{ Outcome: 'Call failed', Calls: 1 }], Followed: true, Verdict: 'Agrees' });
  });
  it('questions a missing tick when every contact was called', () => {
    const d = makeDetail({ EscalationPlanFollowed: false, Calls: [...base.Calls, planCall()] });
    expect(analyse(d).PlanCheck).toMatchObject({ Followed: true, Ticked: false, Verdict: 'Questions' });
  });
  it('finds calls in the activity journal too, to or from the number, earliest first', () => {
    const d = makeDetail({
      EscalationPlanFollowed: true,
      ActivityJournal: {
        ...base.ActivityJournal,
        Activities: [
          ...base.ActivityJournal.Activities,
          journalCall({ to: '+441722334637', from: '+443300000000', duration: 0, status: 'no-answer' }, '2026-11-22T21:50:00.000Z'),
          journalCall({ to: '+443300000000', from: '+441722334637', duration: 45, status: 'completed' }),
        ],
      },
    });
    expect(analyse(d).PlanCheck!.Instructions[0]).toMatchObject({ Outcome: 'Answered', CalledAt: '2026-11-22T21:44:00.000Z', Calls: 2 });
  });
  it('takes the default plan first when no team is the primary group, and has no check without a plan', () => {
    const teams = base.ProfileSnapshot.TeamWithEscalationPlan.map((t) => ({ ...t, Team: { ...t.Team, PrimaryGroup: false } }));
    expect(analyse(makeDetail({ snapshot: { TeamWithEscalationPlan: teams } })).PlanCheck).toMatchObject({
      PlanName: 'Z default plan',
      Instructions: [],
      Followed: true,
    });
    const none = analyse(makeDetail({ snapshot: { TeamWithEscalationPlan: [] } }));
    expect(none.PlanCheck).toBeNull();
    expect(none.Summary).toContain('No escalation plan was in force.');
  });
});

describe('anomalies', () => {
  it('lists a failed call and an unavailable recording with its reason', () => {
    const a = analyse(base).Anomalies;
    expect(a.find((x) => x.Kind === 'failedCall')!.Text).toBe('Call failed: Outbound Second Line call with +44 7820 095688 at 22 Nov 26 21:42:44.');
    expect(a.find((x) => x.Kind === 'recordingUnavailable')!.Text).toBe(
      'Recording of the Alarm call at 22 Nov 26 21:36:14 is unavailable: Recording deleted after the retention period.',
    );
    const clean = makeDetail({ Calls: [planCall({ Records: [{ SId: 'RE9', Unavailable: false, Reason: null }] })] });
    expect(kinds(clean)).not.toContain('failedCall');
    expect(kinds(clean)).not.toContain('recordingUnavailable');
  });
  it('flags a Real Incident without notes, not another verification type', () => {
    const noNotes = { ...base.ActivityJournal, AdditionalNoteList: [] };
    expect(kinds(base)).not.toContain('noNotesOnRealIncident');
    expect(kinds(makeDetail({ ActivityJournal: noNotes }))).toContain('noNotesOnRealIncident');
    expect(kinds(makeDetail({ ActivityJournal: noNotes, VerificationType: { Name: 'False', Value: 4 } }))).not.toContain('noNotesOnRealIncident');
  });
  it('flags active duress words', () => {
    expect(kinds(base)).not.toContain('duressWordsActive');
    const on = makeDetail({ snapshot: { PrimaryTeamAlarmInstruction: { SpecialInstructions: [], DuressWordsActive: true, DuressWords: null } } });
    expect(kinds(on)).toContain('duressWordsActive');
  });
  it('flags verification started outside the target, naming the 40 s limit when over it', () => {
    expect(kinds(makeDetail({ VerificationStartedSeconds: 10 }))).not.toContain('verificationOutsideTarget');
    const late = analyse(makeDetail({ VerificationStartedSeconds: 25 })).Anomalies.find((a) => a.Kind === 'verificationOutsideTarget');
    expect(late!.Text).toBe('Verification started after 25s, outside the 10 s target.');
    const later = analyse(makeDetail({ VerificationStartedSeconds: 75 })).Anomalies.find((a) => a.Kind === 'verificationOutsideTarget');
    expect(later!.Text).toBe('Verification started after 1m 15s, over the 40 s limit.');
  });
});

describe('summary', () => {
  it('is four plain sentences with UK times', () => {
    expect(analyse(base).Summary).toBe(
      'Red Alert alarm for Samuel Pritchard raised at 22 Nov 26 21:36:12 and closed at 22 Nov 26 21:53:12, 17m 00s later. ' +
        'Verification started after 8s (Under 10 s, within the 10 s target) and was completed after 5m 00s (180-600 s). ' +
        "0 of 1 contact of the escalation plan 'Out of hours escalation' were called; this agrees with the controller's 'Escalation plan followed' tick. " +
        'To review: 1 failed call, 1 unavailable recording.',
    );
  });
  it('says when nothing needs review, and shows summer time on the UK clock', () => {
    const d = makeDetail({
      AlarmStared: '2026-07-01T10:00:00.000Z',
      AlarmClosed: '2026-07-01T10:10:00.000Z',
      Calls: [planCall({ StartTime: '2026-07-01T10:00:05.000Z' })],
      EscalationPlanFollowed: true,
    });
    const s = analyse(d).Summary;
    expect(s).toContain('raised at 01 Jul 26 11:00:00 and closed at 01 Jul 26 11:10:00');
    expect(s).toContain("1 of 1 contact of the escalation plan 'Out of hours escalation' was called; this agrees");
    expect(s.endsWith('No anomalies were found.')).toBe(true);
    expect(s.split(/(?<=\.) (?=[A-Z0-9])/).length).toBe(4);
  });
  it('is the same for the same report', () => {
    expect(analyse(makeDetail())).toEqual(analyse(makeDetail()));
  });
});

describe('helpers', () => {
  it('reads phone numbers as international digits', () => {
    expect(phoneKey('+44 7700 900123')).toBe('447700900123');
    expect(phoneKey('07700 900123', '44')).toBe('447700900123');
    expect(phoneKey('7700900123', '+44')).toBe('447700900123');
    expect(phoneKey('00447700900123')).toBe('447700900123');
    expect(phoneKey('')).toBe('');
  });
  it('formats instants on the UK clock across the clock change', () => {
    expect(ukDateTime('2026-03-29T00:59:59.000Z')).toBe('29 Mar 26 00:59:59');
    expect(ukDateTime('2026-03-29T01:00:00.000Z')).toBe('29 Mar 26 02:00:00');
    expect(ukDateTime('nonsense')).toBe('-');
  });
});
