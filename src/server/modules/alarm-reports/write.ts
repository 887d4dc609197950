// Writing closed alarm reports (db first): one report document — the detail document's content
// (spec doc 3 §3) with every row id settled — becomes the rows of alarmReports, alarmCalls,
// alarmMemos (from the snapshot's memos), activityJournal and alarmNotes in one place
// (`reportRows`). The demo seed batches those rows across thousands of reports
// (src/server/seed/alarms.ts); the import (`importAlarmReports`) writes a batch from the ARC
// platform. Everything derived from a report is kept by database triggers in the writing
// transaction: the statistics behind the charts (aggregates.ts), the month tops, the distinct names
// (names.ts) and the search indexes; the Analysis is generated in the same transaction
// (autoGenerateAnalyses) when the customer and the features have auto-generation on.
import type { Insertable } from 'kysely';
import { isPostgres, type DB } from '../../db/index.js';
import type { ActivityJournalTable, AlarmCallTable, AlarmMemoTable, AlarmNoteTable, AlarmReportTable, Database } from '../../db/schema.js';
import { badRequest } from '../../http/api.js';
import { newEtag, newId } from '../../platform/util.js';
import { byTenant, type TenantScope } from '../../auth/tenant-scope.js';
import { CODE } from '../../../shared/messages.js';
import type { AlarmLocation } from '../../../shared/schemas/alarm-reports.js';
import { IMPORT_CLOCK_SKEW_MS, IMPORT_TEXT, type ImportAlarmReportsResponse, type ImportedAlarmReport } from '../../../shared/schemas/alarm-report-import.js';
import { autoGenerateAnalyses } from './analysis.js';
import { detailsOf } from './repo.js';

/** A snapshot memo (spec §3 "Memo or activity"); its Id is the alarmMemos row's. */
export type DocumentMemo = {
  Id: string;
  StartDate: string;
  DurationInMinutes: number;
  DisplayName: { Name: string };
  TextMemo: string | null;
  VoiceMemoId: string | null;
};

/** One closed alarm report to write: the detail document's content, codes as values, every id given. */
export type AlarmReportDocument = {
  Id: string;
  AlarmId: string;
  Etag: string;
  CustomerId: string | null;
  CustomerAccountFullName: string;
  Tier: number | null;
  PersonId: string | null;
  PersonFullName: string;
  ArcControllerId: string | null;
  ArcControllerFullName: string | null;
  AlarmDevice: { Type: number; Serial: string | null } | null;
  AlarmStared: string;
  AlarmClosed: string;
  AlarmType: number;
  VerificationType: number;
  VerificationCategory: number;
  EscalationPlanFollowed: boolean;
  AlarmIncomingCallPhoneNumber: string | null;
  VerificationStartedSeconds: number;
  VerificationCompletedSeconds: number;
  Location: AlarmLocation;
  /** Stored whole as the report's profile snapshot; its memos are also the alarmMemos rows. */
  ProfileSnapshot: { MemosAndActivities: { ActivitiesWithMemos: readonly DocumentMemo[] } } & Record<string, unknown>;
  Calls: readonly {
    Id: string;
    StartTime: string;
    EndTime: string;
    Duration: number;
    Line: string;
    Number: string;
    CallParticipants: readonly { FullName: string }[];
    AlarmCall: boolean;
    ConferenceName: string | null;
    Records: readonly { SId: string; Unavailable: boolean; Reason: string | null }[];
  }[];
  Activities: readonly { Id: string; Date: string; Creator: string; Details: string; CustomProperties: string }[];
  Notes: readonly { Id: string; Note: string; CreatedDate: string; PersonId: string | null; PersonFullName: string; PersonRoles: readonly string[] }[];
};

export type AlarmReportRows = {
  report: AlarmReportTable;
  calls: AlarmCallTable[];
  memos: AlarmMemoTable[];
  journal: ActivityJournalTable[];
  notes: AlarmNoteTable[];
};

/** The table rows of one report document. */
export function reportRows(d: AlarmReportDocument): AlarmReportRows {
  const loc = d.Location;
  return {
    report: {
      id: d.Id,
      alarmId: d.AlarmId,
      customerId: d.CustomerId,
      customerAccountFullName: d.CustomerAccountFullName,
      tier: d.Tier,
      alarmType: d.AlarmType,
      verificationType: d.VerificationType,
      verificationCategory: d.VerificationCategory,
      personId: d.PersonId,
      personFullName: d.PersonFullName,
      deviceType: d.AlarmDevice?.Type ?? null,
      deviceSerial: d.AlarmDevice?.Serial ?? null,
      arcControllerId: d.ArcControllerId,
      arcControllerFullName: d.ArcControllerFullName,
      alarmStarted: d.AlarmStared,
      alarmClosed: d.AlarmClosed,
      verificationStartedSeconds: d.VerificationStartedSeconds,
      verificationCompletedSeconds: d.VerificationCompletedSeconds,
      escalationPlanFollowed: d.EscalationPlanFollowed ? 1 : 0,
      incomingCallPhoneNumber: d.AlarmIncomingCallPhoneNumber,
      location: JSON.stringify({
        GoogleApiAddress: loc.GoogleApiAddress,
        W3WAddress: loc.W3WAddress,
        Latitude: loc.Latitude,
        Longitude: loc.Longitude,
        GpsGenerated: loc.GpsGenerated,
      }),
      profileSnapshot: JSON.stringify(d.ProfileSnapshot),
      etag: d.Etag,
    },
    memos: d.ProfileSnapshot.MemosAndActivities.ActivitiesWithMemos.map((m) => ({
      id: m.Id,
      alarmReportId: d.Id,
      startDate: m.StartDate,
      durationInMinutes: m.DurationInMinutes,
      displayName: m.DisplayName.Name,
      textMemo: m.TextMemo,
      voiceMemoId: m.VoiceMemoId,
    })),
    calls: d.Calls.map((c) => ({
      id: c.Id,
      alarmReportId: d.Id,
      startTime: c.StartTime,
      endTime: c.EndTime,
      duration: c.Duration,
      line: c.Line,
      number: c.Number,
      participants: JSON.stringify(c.CallParticipants),
      alarmCall: c.AlarmCall ? 1 : 0,
      conferenceName: c.ConferenceName,
      records: JSON.stringify(c.Records),
    })),
    journal: d.Activities.map((a) => ({
      id: a.Id,
      alarmReportId: d.Id,
      date: a.Date,
      creator: a.Creator,
      details: a.Details,
      customProperties: a.CustomProperties,
    })),
    notes: d.Notes.map((n) => ({
      id: n.Id,
      alarmReportId: d.Id,
      note: n.Note,
      createdDate: n.CreatedDate,
      personId: n.PersonId,
      personFullName: n.PersonFullName,
      personRoles: JSON.stringify(n.PersonRoles),
    })),
  };
}

/** Where the rows of reports go: a batch inserter per table (the seed) or anything with `add`. */
type Sink<T> = { add(row: Insertable<T>): Promise<void> | void };
export type AlarmReportSinks = {
  reports: Sink<AlarmReportTable>;
  calls: Sink<AlarmCallTable>;
  memos: Sink<AlarmMemoTable>;
  journal: Sink<ActivityJournalTable>;
  notes: Sink<AlarmNoteTable>;
};

/** Adds one report's rows to the sinks (the report row first: the others reference it). */
export async function addAlarmReport(sinks: AlarmReportSinks, d: AlarmReportDocument): Promise<AlarmReportRows> {
  const rows = reportRows(d);
  await sinks.reports.add(rows.report);
  for (const m of rows.memos) await sinks.memos.add(m);
  for (const c of rows.calls) await sinks.calls.add(c);
  for (const j of rows.journal) await sinks.journal.add(j);
  for (const n of rows.notes) await sinks.notes.add(n);
  return rows;
}

/** Multi-row inserts sized under the dialect's bound-parameter limit. */
async function insertChunked<K extends 'alarmCalls' | 'alarmMemos' | 'activityJournal' | 'alarmNotes'>(db: DB, table: K, rows: Insertable<Database[K]>[]) {
  if (!rows.length) return;
  const per = Math.max(1, Math.min(500, Math.floor((isPostgres(db) ? 60_000 : 30_000) / Object.keys(rows[0]!).length)));
  for (let i = 0; i < rows.length; i += per)
    await db
      .insertInto(table)
      .values(rows.slice(i, i + per) as never)
      .execute();
}

/** The writer's document of an imported report, with new row ids and the customer's name and tier where the report gives none. */
function importedDocument(r: ImportedAlarmReport, customer: { name: string; tier: number | null }): AlarmReportDocument {
  const person = r.ProfileSnapshot.Person;
  const memos = r.ProfileSnapshot.MemosAndActivities.ActivitiesWithMemos.map((m) => ({ ...m, Id: newId() }));
  return {
    Id: newId(),
    AlarmId: r.AlarmId,
    Etag: newEtag(),
    CustomerId: r.CustomerId,
    CustomerAccountFullName: r.CustomerAccountFullName?.trim() || customer.name,
    Tier: r.Tier ? r.Tier.Value : customer.tier,
    PersonId: person.Id ?? null,
    PersonFullName: `${person.FirstName.trim()} ${person.LastName.trim()}`.trim(),
    ArcControllerId: r.ArcControllerId ?? null,
    ArcControllerFullName: r.ArcControllerFullName,
    AlarmDevice: r.AlarmDevice ? { Type: r.AlarmDevice.Type.Value, Serial: r.AlarmDevice.Serial } : null,
    AlarmStared: r.AlarmStared,
    AlarmClosed: r.AlarmClosed,
    AlarmType: r.AlarmType.Value,
    VerificationType: r.VerificationType.Value,
    VerificationCategory: r.VerificationCategory.Value,
    EscalationPlanFollowed: r.EscalationPlanFollowed,
    AlarmIncomingCallPhoneNumber: r.AlarmIncomingCallPhoneNumber,
    VerificationStartedSeconds: r.VerificationStartedSeconds,
    VerificationCompletedSeconds: r.VerificationCompletedSeconds,
    Location: r.Location,
    ProfileSnapshot: { ...r.ProfileSnapshot, MemosAndActivities: { ...r.ProfileSnapshot.MemosAndActivities, ActivitiesWithMemos: memos } },
    Calls: r.Calls.map((c) => ({ ...c, Id: newId() })),
    Activities: r.ActivityJournal.Activities.map((a) => ({ ...a, Id: newId() })),
    Notes: r.ActivityJournal.AdditionalNoteList.map((n) => ({
      Id: newId(),
      Note: n.Note.trim(),
      CreatedDate: n.CreatedDate,
      PersonId: n.Person.Id ?? null,
      PersonFullName: n.Person.FullName,
      PersonRoles: n.Person.Roles,
    })),
  };
}

/**
 * Imports closed alarm reports (POST /alarm-report/import), run inside the caller's transaction.
 * Each report's customer must exist within the scope and its closed date may not be in the future
 * (beyond clock skew): otherwise 400 naming each refused report by its index, nothing written. A
 * report whose AlarmId is already stored (or came earlier in the batch) is not written again and
 * answers as AlreadyPresent with the stored report's id. The Analysis of each created report is
 * generated in the same transaction when auto-generation is on for it.
 */
export async function importAlarmReports(db: DB, scope: TenantScope, reports: readonly ImportedAlarmReport[], now: Date): Promise<ImportAlarmReportsResponse> {
  const customerIds = [...new Set(reports.map((r) => r.CustomerId))];
  const customers = new Map<string, { name: string; tier: number | null }>();
  for (let i = 0; i < customerIds.length; i += 500) {
    const rows = await byTenant(
      db
        .selectFrom('customers')
        .select(['id', 'name', 'tier'])
        .where('id', 'in', customerIds.slice(i, i + 500)),
      scope,
      'customers.tenantId',
    ).execute();
    for (const c of rows) customers.set(c.id, { name: c.name, tier: c.tier });
  }
  const errors: Record<string, string> = {};
  const latest = new Date(now.getTime() + IMPORT_CLOCK_SKEW_MS).toISOString();
  reports.forEach((r, i) => {
    if (!customers.has(r.CustomerId)) errors[`AlarmReports.${i}.CustomerId`] = IMPORT_TEXT.unknownCustomer;
    else if (r.AlarmClosed > latest) errors[`AlarmReports.${i}.AlarmClosed`] = IMPORT_TEXT.closedInFuture;
  });
  const first = Object.values(errors)[0];
  if (first) throw badRequest(first, CODE.validation, errors);

  const docs = reports.map((r) => importedDocument(r, customers.get(r.CustomerId)!));
  // The report rows first, each only if its AlarmId is new (the unique index decides, also against a
  // concurrent import of the same alarm); a duplicate within the batch loses to its first copy.
  const createdIds = new Set<string>();
  const rows = docs.map(reportRows);
  for (let i = 0; i < rows.length; i += 500) {
    const inserted = await db
      .insertInto('alarmReports')
      .values(rows.slice(i, i + 500).map((x) => x.report))
      .onConflict((oc) => oc.column('alarmId').doNothing())
      .returning('id')
      .execute();
    for (const x of inserted) createdIds.add(x.id);
  }
  const created = rows.filter((x) => createdIds.has(x.report.id));
  await insertChunked(
    db,
    'alarmMemos',
    created.flatMap((x) => x.memos),
  );
  await insertChunked(
    db,
    'alarmCalls',
    created.flatMap((x) => x.calls),
  );
  await insertChunked(
    db,
    'activityJournal',
    created.flatMap((x) => x.journal),
  );
  await insertChunked(
    db,
    'alarmNotes',
    created.flatMap((x) => x.notes),
  );
  // The Analysis from the documents just written, as get-details would read them back.
  const byTimeThenId =
    <T extends { id: string }>(key: (x: T) => string) =>
    (a: T, b: T) =>
      key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  const analysed = await autoGenerateAnalyses(
    db,
    created.map((x) => ({
      ...x.report,
      details: detailsOf(
        x.report,
        [...x.calls].sort(byTimeThenId((c) => c.startTime)),
        [...x.journal].sort(byTimeThenId((j) => j.date)),
        [...x.notes].sort(byTimeThenId((n) => n.createdDate)),
      ),
    })),
    now,
  );

  const present = new Map<string, string>();
  const others = [...new Set(rows.filter((x) => !createdIds.has(x.report.id)).map((x) => x.report.alarmId))];
  for (let i = 0; i < others.length; i += 500) {
    const found = await db
      .selectFrom('alarmReports')
      .select(['id', 'alarmId'])
      .where('alarmId', 'in', others.slice(i, i + 500))
      .execute();
    for (const f of found) present.set(f.alarmId, f.id);
  }
  const out: ImportAlarmReportsResponse = { Created: [], AlreadyPresent: [], Analysed: analysed };
  rows.forEach((x, Index) => {
    const AlarmId = x.report.alarmId;
    if (createdIds.has(x.report.id)) out.Created.push({ Index, AlarmId, AlarmReportId: x.report.id });
    else out.AlreadyPresent.push({ Index, AlarmId, AlarmReportId: present.get(AlarmId) ?? '' });
  });
  return out;
}
