// Closed alarm reports of the demo data: the report row with its location and full profile
// snapshot (spec doc 3 section 3), and its calls, memos, activity journal and notes.
//
// Activity journal `customProperties` is a JSON string whose `kind` field says which of the
// spec's CustomProperties kinds it is — one of 'call', 'email', 'sms', 'location',
// 'verification', 'note', 'supportIssueRaised', 'alarmNotice', 'alarmType' — followed by that
// kind's fields exactly as the spec names them (e.g. {kind:'call', to, from, duration, status}).
//
// Audio: the alarmAudioClips table holds a few short WAV clips (modules/alarm-reports/audio.ts);
// call records that are not Unavailable and every voice memo are served one of them.
import type { DB } from '../db/index.js';
import { ALARM_TYPES, DEVICE_TYPES, VERIFICATION_CATEGORIES, VERIFICATION_TYPES, lookupName } from '../../shared/codes.js';
import { ROLE_LABELS } from '../../shared/permissions.js';
import { Rng } from './rng.js';
import { itemAt } from './lists.js';
import { BatchInserter } from './insert.js';
import { ALARM_NOTICES, ARC_NUMBER, MEMO_ACTIVITIES, MEMO_TEXTS, NOTE_TEXTS, RELATIONSHIPS, SUPPORT_ISSUES, TOWNS } from './data.js';
import { e164, gridReference, homeAddress, nearTown, oneLine, personBundle, personName, ukLandline, ukMobile, w3w } from './gen.js';
import type { CustomerRef, StaffRef, WorkerRef } from './model.js';
import { seedAudioClips } from '../modules/alarm-reports/audio.js';
import { analyseAlarmReport, phoneKey } from '../../shared/alarm-intelligence.js';
import type { AlarmCallDto } from '../../shared/schemas/alarm-reports.js';
import { addAlarmReport, type AlarmReportDocument } from '../modules/alarm-reports/write.js';

/** Every CustomProperties kind of spec doc 3, in the order the first alarms are guaranteed to carry the rare ones. */
export const JOURNAL_KINDS = ['call', 'email', 'sms', 'location', 'verification', 'note', 'supportIssueRaised', 'alarmNotice', 'alarmType'] as const;
export type JournalKind = (typeof JOURNAL_KINDS)[number];

export const CALL_LINES = ['Covert Call', 'Alarm', 'Outbound Second Line', 'Inbound Second Line'] as const;

const DAY = 86_400_000;
const FEMALE_RELATIONS = new Set(['Mother', 'Sister', 'Daughter']);
const MALE_RELATIONS = new Set(['Father', 'Brother', 'Son']);
const iso = (ms: number) => new Date(ms).toISOString();

type Weights<T> = readonly (readonly [T, number])[];
type Trigger = 1 | 2 | 3 | 4 | 5 | 6;
type VerificationType = 1 | 2 | 3 | 4;

/** Category choices per verification type (the hundreds digit is the type). */
const CATEGORY_WEIGHTS: Record<VerificationType, Weights<number>> = {
  1: [
    [101, 20],
    [102, 10],
    [103, 8],
    [104, 25],
    [105, 25],
    [106, 4],
    [107, 8],
  ],
  2: [
    [201, 45],
    [202, 10],
    [203, 25],
    [204, 12],
    [205, 8],
  ],
  3: [
    [301, 35],
    [302, 65],
  ],
  4: [
    [401, 20],
    [402, 55],
    [403, 25],
  ],
};
/** Verification type weights per alarm type (trigger). */
const TYPE_BY_TRIGGER: Record<Trigger, Weights<VerificationType>> = {
  1: [
    [1, 14],
    [2, 16],
    [3, 15],
    [4, 55],
  ],
  2: [
    [1, 18],
    [2, 12],
    [3, 5],
    [4, 65],
  ],
  3: [
    [1, 4],
    [2, 30],
    [3, 6],
    [4, 60],
  ],
  4: [
    [1, 6],
    [2, 40],
    [3, 30],
    [4, 24],
  ],
  5: [
    [1, 45],
    [2, 35],
    [3, 4],
    [4, 16],
  ],
  6: [
    [1, 6],
    [2, 34],
    [3, 5],
    [4, 55],
  ],
};
const TRIGGERS: Weights<Trigger> = [
  [1, 45],
  [2, 10],
  [3, 14],
  [4, 15],
  [5, 10],
  [6, 6],
];

type Ctx = {
  seed: number;
  now: Date;
  nowMs: number;
  count: number;
  customers: CustomerRef[];
  workers: WorkerRef[];
  assignedWorkers: number[];
  staff: StaffRef[];
  log?: (e: Record<string, unknown>) => void;
  /** Customers whose reports get their Analysis stored as they are seeded (intelligence and auto-generation on). */
  autoAnalyses?: ReadonlySet<string>;
};

export async function generateAlarmReports(trx: DB, ctx: Ctx) {
  const { seed, now, nowMs, customers, workers, assignedWorkers, staff } = ctx;
  const reports = new BatchInserter(trx, 'alarmReports', [
    'id',
    'alarmId',
    'customerId',
    'customerAccountFullName',
    'tier',
    'alarmType',
    'verificationType',
    'verificationCategory',
    'personId',
    'personFullName',
    'deviceType',
    'deviceSerial',
    'arcControllerId',
    'arcControllerFullName',
    'alarmStarted',
    'alarmClosed',
    'verificationStartedSeconds',
    'verificationCompletedSeconds',
    'escalationPlanFollowed',
    'incomingCallPhoneNumber',
    'location',
    'profileSnapshot',
    'etag',
  ]);
  const calls = new BatchInserter(
    trx,
    'alarmCalls',
    ['id', 'alarmReportId', 'startTime', 'endTime', 'duration', 'line', 'number', 'participants', 'alarmCall', 'conferenceName', 'records'],
    [reports],
  );
  const memos = new BatchInserter(
    trx,
    'alarmMemos',
    ['id', 'alarmReportId', 'startDate', 'durationInMinutes', 'displayName', 'textMemo', 'voiceMemoId'],
    [reports],
  );
  const journal = new BatchInserter(trx, 'activityJournal', ['id', 'alarmReportId', 'date', 'creator', 'details', 'customProperties'], [reports]);
  const notes = new BatchInserter(trx, 'alarmNotes', ['id', 'alarmReportId', 'note', 'createdDate', 'personId', 'personFullName', 'personRoles'], [reports]);
  const analyses = new BatchInserter(trx, 'alarmReportAnalyses', ['alarmReportId', 'analysis', 'generatedAt', 'generatedBy'], [reports]);
  const sinks = { reports, calls, memos, journal, notes };

  const controllers = staff.filter((s) => s.roles.includes('ArcControllerRole'));
  const reviewers = staff.filter((s) => s.roles.some((r) => r === 'ArcSupervisorRole' || r === 'ArcManagerRole' || r === 'ArcControllerRole'));
  if (controllers.length === 0 || workers.length === 0) throw new Error('seed: alarm reports need ARC controllers and lone workers');
  const full = (s: { firstName: string; lastName: string }) => `${s.firstName} ${s.lastName}`;

  const r = new Rng(seed, 'alarms');
  for (let i = 0; i < ctx.count; i++) {
    const w = assignedWorkers.length ? itemAt(workers, r.pick(assignedWorkers)) : r.pick(workers);
    const c = itemAt(customers, w.cust);
    const device = w.devices ? r.pick(w.devices) : null;
    const controller = r.pick(controllers);
    const id = r.uuid();
    const alarmId = r.uuid();

    // When: 13 months back, weighted to recent.
    const ageMs = Math.floor(395 * DAY * r.next() ** 1.8);
    const trigger = r.weighted(TRIGGERS);
    const vType = r.weighted(TYPE_BY_TRIGGER[trigger]);
    const category = r.weighted(CATEGORY_WEIGHTS[vType]);
    const vStarted =
      r.weighted([
        [0, 55],
        [1, 35],
        [2, 10],
      ] as const) === 0
        ? r.int(2, 9)
        : r.chance(0.78)
          ? r.int(10, 39)
          : r.int(40, 180);
    const band = r.weighted([
      [0, 8],
      [1, 14],
      [2, 58],
      [3, 20],
    ] as const);
    const vCompleted = Math.max(vStarted + 20, band === 0 ? r.int(45, 119) : band === 1 ? r.int(120, 179) : band === 2 ? r.int(180, 599) : r.int(600, 2400));
    let startMs = nowMs - ageMs - r.int(0, 3_600_000);
    let closedMs = startMs + vCompleted * 1000 + r.int(30, 1200) * 1000;
    if (closedMs > nowMs - 60_000) {
      const shift = closedMs - (nowMs - 60_000);
      startMs -= shift;
      closedMs -= shift;
    }

    // Where.
    const town = r.chance(0.85) ? c.town : r.pick(TOWNS);
    const { lat, lng } = nearTown(r, town);
    const addr = homeAddress(r, town);
    const googleAddress = `${oneLine(addr)}, UK`;
    const w3wAddress = w3w(r);
    const gps = r.chance(0.85);
    const location = { GoogleApiAddress: googleAddress, W3WAddress: w3wAddress, Latitude: lat, Longitude: lng, GpsGenerated: gps };

    // Who: the person as they were (regenerated from their seed) plus contacts, teams and devices.
    const bundle = personBundle(seed, w.pidx, 'worker', c, now);
    const ecRng = new Rng(seed, 'emergency-contacts', w.pidx);
    const emergencyContacts = Array.from(
      {
        length: ecRng.weighted([
          [0, 1],
          [1, 4],
          [2, 4],
          [3, 1],
        ] as const),
      },
      () => {
        const relationship = ecRng.pick(RELATIONSHIPS);
        const gender = FEMALE_RELATIONS.has(relationship) ? 'Female' : MALE_RELATIONS.has(relationship) ? 'Male' : null;
        let n = personName(ecRng);
        while (gender && n.gender !== gender) n = personName(ecRng);
        const family = !['Friend', 'Line manager', 'Colleague', 'Neighbour'].includes(relationship);
        return {
          FirstName: n.firstName,
          LastName: family && ecRng.chance(0.7) ? w.lastName : n.lastName,
          Relationship: relationship,
          PhoneNumber: { CountryCode: '44', Number: ecRng.chance(0.85) ? ukMobile(ecRng) : ukLandline(ecRng, c.town) },
        };
      },
    );
    const team = c.teams[w.team] ?? itemAt(c.teams, 0);
    const otherTeam = c.teams.length > 1 && ecRng.chance(0.3) ? itemAt(c.teams, (w.team + 1) % c.teams.length) : null;
    const incoming = device?.phone ?? e164(bundle.workPhone);
    const memoList = Array.from(
      {
        length: r.weighted([
          [0, 35],
          [1, 40],
          [2, 18],
          [3, 7],
        ] as const),
      },
      () => ({
        Id: r.uuid(),
        StartDate: iso(startMs - r.int(5, 240) * 60_000),
        DurationInMinutes: r.pick([15, 30, 45, 60, 90, 120, 180]),
        DisplayName: { Name: r.pick(MEMO_ACTIVITIES) },
        TextMemo: r.chance(0.8) ? r.pick(MEMO_TEXTS) : null,
        VoiceMemoId: r.chance(0.35) ? r.uuid() : null,
      }),
    ).sort((a, b) => a.StartDate.localeCompare(b.StartDate));
    const snapshot = {
      Person: {
        Id: w.id,
        FirstName: w.firstName,
        LastName: w.lastName,
        Company: {
          Name: c.name,
          IsEurowatch: c.services.eurowatch === 1,
          IsGlobalResponse: c.services.globalResponse === 1,
          IsTranslationServices: c.services.translationServices === 1,
          IsNationalResponse: c.services.nationalResponse === 1,
        },
        Contact: {
          WorkPhoneNumber: { CountryCode: '44', Number: bundle.workPhone },
          PersonalPhoneNumber: bundle.personalPhone ? { CountryCode: '44', Number: bundle.personalPhone } : null,
          EmailAddress: w.email,
        },
        EmergencyContacts: emergencyContacts,
        ...bundle.profile,
      },
      SnapshotDate: iso(startMs - r.int(1, 90) * 1000),
      PrimaryTeamAlarmInstruction: { SpecialInstructions: team.special, DuressWordsActive: team.duressActive, DuressWords: team.duress },
      Devices: (w.devices ?? []).map((d) => ({
        Id: d.id,
        Type: { Name: lookupName(DEVICE_TYPES, d.type), Value: d.type },
        Serial: d.serial,
        PhoneNumber: d.phone,
        LastKnownBattery: d.battery,
      })),
      TeamWithEscalationPlan: [team, ...(otherTeam ? [otherTeam] : [])].map((t, k) => ({
        Team: { Name: t.name, PrimaryGroup: k === 0 },
        EscalationPlan: t.plan,
        DefaultEscalationPlan: t.isDefaultPlan,
      })),
      MemosAndActivities: { ActivitiesWithMemos: memoList },
    };

    const escalationPlanFollowed = r.chance(vType <= 2 ? 0.85 : 0.6) ? 1 : 0;
    const etag = r.etag();

    // Calls: the alarm call first, then second-line and covert calls.
    type J = { at: number; creator: string; details: string; props: Record<string, unknown> & { kind: JournalKind } };
    const entries: J[] = [];
    const nCalls = r.weighted([
      [1, 35],
      [2, 35],
      [3, 20],
      [4, 10],
    ] as const);
    const seenCalls: Pick<AlarmCallDto, 'StartTime' | 'Duration' | 'Line' | 'Number' | 'Records'>[] = [];
    const callDocs: AlarmReportDocument['Calls'][number][] = [];
    let callAt = startMs + r.int(1, 5) * 1000;
    for (let k = 0; k < nCalls; k++) {
      const line =
        k === 0
          ? 'Alarm'
          : r.weighted([
              ['Outbound Second Line', 55],
              ['Inbound Second Line', 20],
              ['Covert Call', vType === 1 ? 40 : 10],
            ] as const);
      const failed = r.chance(k === 0 ? 0.04 : 0.14);
      const duration = failed ? 0 : Math.round((line === 'Covert Call' ? r.float(60, 900) : r.float(15, 420)) * 100) / 100;
      const contact = emergencyContacts.length && r.chance(0.6) ? r.pick(emergencyContacts) : null;
      const number =
        line === 'Alarm' || line === 'Covert Call'
          ? incoming
          : line === 'Inbound Second Line'
            ? e164(bundle.workPhone)
            : contact
              ? e164(contact.PhoneNumber.Number)
              : e164(team.plan.Instructions[0]?.Contact.Value ?? bundle.workPhone);
      const nRecords = duration === 0 ? 0 : r.chance(0.15) ? 2 : 1;
      const records = Array.from({ length: nRecords }, () => {
        const unavailable = r.chance(0.08);
        return {
          SId: `RE${r.hex(16)}`,
          Unavailable: unavailable,
          Reason: unavailable ? r.pick(['Recording deleted after the retention period', 'Recording failed to upload', 'Recording not found']) : null,
        };
      });
      const other = line === 'Outbound Second Line' && contact ? `${contact.FirstName} ${contact.LastName}` : full(w);
      const callId = r.uuid();
      seenCalls.push({ StartTime: iso(callAt), Duration: duration, Line: line, Number: number, Records: records });
      callDocs.push({
        Id: callId,
        StartTime: iso(callAt),
        EndTime: iso(callAt + Math.round(duration * 1000)),
        Duration: duration,
        Line: line,
        Number: number,
        CallParticipants: [{ FullName: full(controller) }, { FullName: other }],
        AlarmCall: k === 0,
        ConferenceName: `CF${r.hex(16)}`,
        Records: records,
      });
      const outbound = line === 'Outbound Second Line';
      entries.push({
        at: callAt,
        creator: k === 0 ? 'System' : full(controller),
        details: `${line}${duration === 0 ? ' - call failed' : ''}`,
        props: {
          kind: 'call',
          to: outbound ? number : ARC_NUMBER,
          from: outbound ? ARC_NUMBER : number,
          duration: Math.floor(duration),
          status: duration === 0 ? r.pick(['no-answer', 'busy', 'failed']) : 'completed',
        },
      });
      callAt += Math.round(duration * 1000) + r.int(10, 120) * 1000;
    }
    // A plan ticked as followed was, in eight alarms of ten: each of its contacts not called yet is
    // called in turn (answered), so the analysis and the management report's escalation compliance
    // show followed plans beside questioned ones. Drawn without the generator, so the rest of the
    // demo data is the same as before.
    const called = new Set(seenCalls.map((s) => phoneKey(s.Number)));
    const uncalled = team.plan.Instructions.filter((ins, k, all) => {
      const key = phoneKey(e164(ins.Contact.Value));
      return !called.has(key) && all.findIndex((x) => phoneKey(e164(x.Contact.Value)) === key) === k;
    });
    // (an alarm keeps at most four calls)
    if (escalationPlanFollowed === 1 && i % 10 < 8 && uncalled.length && seenCalls.length + uncalled.length <= 4) {
      for (const [k, ins] of uncalled.entries()) {
        const number = e164(ins.Contact.Value);
        const duration = 35 + ((i + k * 7) % 90);
        const at = iso(callAt);
        seenCalls.push({ StartTime: at, Duration: duration, Line: 'Outbound Second Line', Number: number, Records: [] });
        callDocs.push({
          Id: `${id.slice(0, 24)}${String(k).padStart(12, '0')}`,
          StartTime: at,
          EndTime: iso(callAt + duration * 1000),
          Duration: duration,
          Line: 'Outbound Second Line',
          Number: number,
          CallParticipants: [{ FullName: full(controller) }, { FullName: ins.Contact.InstructionContactName }],
          AlarmCall: false,
          ConferenceName: `CF${id.replace(/-/g, '').slice(0, 12)}${String(k).padStart(4, '0')}`,
          Records: [],
        });
        entries.push({
          at: callAt,
          creator: full(controller),
          details: 'Outbound Second Line',
          props: { kind: 'call', to: number, from: ARC_NUMBER, duration, status: 'completed' },
        });
        callAt += duration * 1000 + 30_000;
      }
    }

    entries.push({
      at: startMs,
      creator: 'System',
      details: `Alarm raised: ${lookupName(ALARM_TYPES, trigger)}`,
      props: { kind: 'alarmType', trigger: lookupName(ALARM_TYPES, trigger) },
    });
    entries.push({
      at: startMs + r.int(2, 20) * 1000,
      creator: 'System',
      details: gps ? 'GPS location received' : 'Location from the network',
      props: {
        kind: 'location',
        googleApiAddress: googleAddress,
        latitude: lat,
        longitude: lng,
        w3WAddress: w3wAddress,
        gridReference: gridReference(r, town),
      },
    });
    entries.push({
      at: closedMs - r.int(1, 20) * 1000,
      creator: full(controller),
      details: 'Alarm verified and closed',
      props: { kind: 'verification', type: lookupName(VERIFICATION_TYPES, vType), category: lookupName(VERIFICATION_CATEGORIES, category) },
    });

    // Optional kinds; the first alarms carry each rare kind so every kind exists at any scale.
    const between = () => startMs + Math.floor((closedMs - startMs) * r.next());
    const optional: J[] = [];
    const forced = i < JOURNAL_KINDS.length ? JOURNAL_KINDS[i] : null;
    const want = (kind: JournalKind, p: number) => kind === forced || r.chance(p);
    if (want('email', 0.3))
      optional.push({
        at: between(),
        creator: full(controller),
        details: `E-mail sent to ${c.safetyLead.name}`,
        props: {
          kind: 'email',
          to: c.safetyLead.email,
          subject: `Alarm notification: ${full(w)}`,
          content: `An alarm raised by ${full(w)} at ${iso(startMs).slice(11, 16)} was handled by the monitoring centre. Outcome: ${lookupName(VERIFICATION_TYPES, vType)}.`,
          status: r.weighted([
            ['Delivered', 9],
            ['Sent', 2],
            ['Failed', 0.5],
          ] as const),
        },
      });
    if (want('sms', 0.45))
      optional.push({
        at: between(),
        creator: full(controller),
        details: `SMS sent to ${full(w)}`,
        props: {
          kind: 'sms',
          to: e164(bundle.workPhone),
          body: r.pick([
            'Your alarm has been received. A controller is calling you now.',
            'We could not reach you. Please call the monitoring centre back.',
            'Your alarm has been closed. Stay safe.',
          ]),
          status: r.weighted([
            ['Delivered', 9],
            ['Sent', 2],
            ['Undelivered', 0.5],
          ] as const),
        },
      });
    if (want('note', 0.4))
      optional.push({ at: between(), creator: full(controller), details: 'Controller note', props: { kind: 'note', text: r.pick(NOTE_TEXTS) } });
    if (want('alarmNotice', 0.15))
      optional.push({
        at: startMs + r.int(5, 30) * 1000,
        creator: 'System',
        details: 'Alarm notice shown',
        props: { kind: 'alarmNotice', expiryDate: iso(startMs + r.int(1, 14) * DAY), notice: r.pick(ALARM_NOTICES) },
      });
    if (want('supportIssueRaised', 0.05)) {
      const raised = between();
      optional.push({
        at: raised,
        creator: full(controller),
        details: `Support issue raised: ${r.pick(SUPPORT_ISSUES)}`,
        props: { kind: 'supportIssueRaised', controllerName: full(controller), issueRaisedDate: iso(raised) },
      });
    }
    optional.sort((x, y) => Number(y.props.kind === forced) - Number(x.props.kind === forced));
    entries.push(...optional.slice(0, Math.max(0, 10 - entries.length)));
    entries.sort((a, b) => a.at - b.at);
    const activities = entries.map((e) => ({
      Id: r.uuid(),
      Date: iso(e.at),
      Creator: e.creator,
      Details: e.details,
      CustomProperties: JSON.stringify(e.props),
    }));

    // Reviewers' notes after the alarm closed.
    const nNotes = r.weighted([
      [0, 55],
      [1, 25],
      [2, 15],
      [3, 5],
    ] as const);
    let noteAt = closedMs;
    const noteDocs: AlarmReportDocument['Notes'][number][] = [];
    for (let k = 0; k < nNotes; k++) {
      noteAt = Math.min(nowMs, noteAt + r.int(2, 60 * 24 * 3) * 60_000);
      const author = r.pick(reviewers);
      noteDocs.push({
        Id: r.uuid(),
        Note: r.pick(NOTE_TEXTS),
        CreatedDate: iso(noteAt),
        PersonId: author.id,
        PersonFullName: full(author),
        PersonRoles: author.roles.map((x) => ROLE_LABELS[x]),
      });
    }

    // The report's rows, as every writer of reports builds them (modules/alarm-reports/write.ts).
    await addAlarmReport(sinks, {
      Id: id,
      AlarmId: alarmId,
      Etag: etag,
      CustomerId: c.id,
      CustomerAccountFullName: c.name,
      Tier: c.tier,
      PersonId: w.id,
      PersonFullName: full(w),
      ArcControllerId: controller.id,
      ArcControllerFullName: full(controller),
      AlarmDevice: { Type: device?.type ?? 3, Serial: device?.serial ?? null },
      AlarmStared: iso(startMs),
      AlarmClosed: iso(closedMs),
      AlarmType: trigger,
      VerificationType: vType,
      VerificationCategory: category,
      EscalationPlanFollowed: escalationPlanFollowed === 1,
      AlarmIncomingCallPhoneNumber: incoming,
      VerificationStartedSeconds: vStarted,
      VerificationCompletedSeconds: vCompleted,
      Location: location,
      ProfileSnapshot: snapshot,
      Calls: callDocs,
      Activities: activities,
      Notes: noteDocs,
    });

    // The Analysis, from the same data the detail document is read back from (no extra queries).
    if (ctx.autoAnalyses?.has(c.id)) {
      const analysis = analyseAlarmReport({
        AlarmStared: iso(startMs),
        AlarmClosed: iso(closedMs),
        AlarmType: { Name: lookupName(ALARM_TYPES, trigger), Value: trigger },
        VerificationType: { Name: lookupName(VERIFICATION_TYPES, vType), Value: vType },
        EscalationPlanFollowed: escalationPlanFollowed === 1,
        VerificationStartedSeconds: vStarted,
        VerificationCompletedSeconds: vCompleted,
        Calls: seenCalls,
        ProfileSnapshot: snapshot,
        ActivityJournal: {
          AdditionalNoteList: Array.from({ length: nNotes }),
          Activities: entries.map((e) => ({ Date: iso(e.at), CustomProperties: JSON.stringify(e.props) })),
        },
      });
      await analyses.add({ alarmReportId: id, analysis: JSON.stringify(analysis), generatedAt: now.toISOString(), generatedBy: null });
    }
  }
  for (const ins of [reports, calls, memos, journal, notes, analyses]) await ins.flush();
  // Real audio: a few short WAV clips from their own rng stream (nothing above shifts); every
  // available call record and voice memo plays one of them, records marked Unavailable keep their Reason.
  const clips = await seedAudioClips(trx, seed);
  ctx.log?.({ msg: 'demo audio clips', clips });
  ctx.log?.({ msg: 'demo data insert time', ...Object.fromEntries([reports, calls, memos, journal, notes].map((x) => [x.table, Math.round(x.ms)])) });
  return {
    alarmReports: reports.total,
    alarmCalls: calls.total,
    alarmMemos: memos.total,
    activityJournal: journal.total,
    alarmNotes: notes.total,
    alarmReportAnalyses: analyses.total,
  };
}
