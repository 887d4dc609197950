// Alarm report rows for server tests: one report with its calls, memos, activity journal and notes,
// every value overridable. The snapshot is the full shape the demo seed stores.
import { randomUUID } from 'node:crypto';
import type { DB } from '../../src/server/db/index.js';
import type { AlarmReportTable, CustomerTable } from '../../src/server/db/schema.js';
import { insertCustomer } from './customer-rows.js';

export type CallIn = {
  id?: string;
  line?: string;
  duration?: number;
  startTime?: string;
  conferenceName?: string | null;
  records?: { SId: string; Unavailable: boolean; Reason: string | null }[];
};
export type ReportIn = Partial<AlarmReportTable> & {
  calls?: CallIn[];
  memos?: { id?: string; voiceMemoId?: string | null; textMemo?: string | null }[];
  journal?: { details: string; customProperties: string; date?: string }[];
  notes?: { note: string; createdDate?: string; personFullName?: string; personRoles?: string[] }[];
  snapshot?: Record<string, unknown>;
};

export function fullSnapshot(personId: string, over: Record<string, unknown> = {}) {
  const option = (Id: number, Name: string) => ({ Id, Name });
  const address = {
    AddressLine1: '1 High Street',
    AddressLine2: null,
    City: 'Leeds',
    County: 'West Yorkshire',
    PostCode: 'LS1 1AA',
    Country: { Id: 'country-gb', Name: 'United Kingdom', Code: 'GB' },
  };
  return {
    Person: {
      Id: personId,
      FirstName: 'Jane',
      LastName: 'Doe',
      Company: { Name: 'Acme Care Ltd', IsEurowatch: false, IsGlobalResponse: true, IsTranslationServices: false, IsNationalResponse: false },
      Contact: { WorkPhoneNumber: { CountryCode: '44', Number: '7700900123' }, PersonalPhoneNumber: null, EmailAddress: 'jane@acme.test' },
      EmergencyContacts: [{ FirstName: 'John', LastName: 'Doe', Relationship: 'Brother', PhoneNumber: { CountryCode: '44', Number: '7700900456' } }],
      Title: option(2, 'Mrs'),
      JobSector: option(1, 'Health'),
      JobRole: option(11, 'Nurse'),
      JobTitle: 'Community Nurse',
      RiskProfiles: [option(3, 'Lone visits')],
      VehicleInformation: { VehicleOwnedOrUsed: true, VehicleRegistration: 'AB12 CDE', Color: option(1, 'Blue'), Make: option(4, 'Ford'), Model: 'Fiesta' },
      PersonalDetails: { DateOfBirth: '1985-04-02', Gender: option(1, 'Female'), HomeAddress: address, WorkAddress: address },
      MedicalInformation: { HearingImpairment: true, HearingImpairmentLevel: 'Mild', BloodType: option(1, 'O+'), MedicalConditions: [option(2, 'Asthma')] },
      Ethnicity: null,
      PhysicalInformation: {
        Height: { Unit: 'centimeters', CentimeterValue: 165, FeetValue: 5, InchValue: 5 },
        HairColor: option(1, 'Brown'),
        EyeColor: option(2, 'Green'),
        DistinguishingFeatures: [{ Id: 1, Name: 'Tattoo', AdditionalInformation: 'Left wrist' }],
      },
    },
    SnapshotDate: '2026-11-20T09:59:00.000Z',
    PrimaryTeamAlarmInstruction: {
      SpecialInstructions: ['Call the site manager first'],
      DuressWordsActive: true,
      DuressWords: { Monitor: 'blue', CallPolice: 'red' },
    },
    Devices: [{ Id: randomUUID(), Type: { Name: 'SG620', Value: 620 }, Serial: 'SG620-0001', PhoneNumber: '447700900999', LastKnownBattery: 78 }],
    TeamWithEscalationPlan: [
      {
        Team: { Name: 'North', PrimaryGroup: true },
        EscalationPlan: {
          Name: 'Default plan',
          Instructions: [{ Instruction: 'Call the user', Contact: { InstructionContactName: 'Manager - Ann Lee', CountryCode: '44', Value: '7700900111' } }],
        },
        DefaultEscalationPlan: true,
      },
    ],
    MemosAndActivities: { ActivitiesWithMemos: [] as unknown[] },
    ...over,
  };
}

/** Inserts one alarm report (defaults: closed 2026-11-20 10:00 UTC, Real Incident / Violence, SOS Button, started 5 s). */
export async function insertAlarmReport(db: DB, over: ReportIn = {}) {
  const { calls = [], memos = [], journal = [], notes = [], snapshot, ...row } = over;
  const id = row.id ?? randomUUID();
  const personId = row.personId === undefined ? randomUUID() : row.personId;
  const memoRows = memos.map((m) => ({
    id: m.id ?? randomUUID(),
    alarmReportId: id,
    startDate: '2026-11-20T08:00:00.000Z',
    durationInMinutes: 30,
    displayName: 'Home visit',
    textMemo: m.textMemo === undefined ? 'Visiting 3 Elm Road' : m.textMemo,
    voiceMemoId: m.voiceMemoId === undefined ? randomUUID() : m.voiceMemoId,
  }));
  const snap =
    snapshot ??
    fullSnapshot(personId ?? '', {
      MemosAndActivities: {
        ActivitiesWithMemos: memoRows.map((m) => ({
          Id: m.id,
          StartDate: m.startDate,
          DurationInMinutes: m.durationInMinutes,
          DisplayName: { Name: m.displayName },
          TextMemo: m.textMemo,
          VoiceMemoId: m.voiceMemoId,
        })),
      },
    });
  const report: AlarmReportTable = {
    id,
    alarmId: randomUUID(),
    customerId: null,
    customerAccountFullName: 'Acme Care Ltd',
    tier: 2,
    alarmType: 1,
    verificationType: 1,
    verificationCategory: 101,
    personId,
    personFullName: 'Jane Doe',
    deviceType: 620,
    deviceSerial: 'SG620-0001',
    arcControllerId: randomUUID(),
    arcControllerFullName: 'Carl Controller',
    alarmStarted: '2026-11-20T09:58:00.000Z',
    alarmClosed: '2026-11-20T10:00:00.000Z',
    verificationStartedSeconds: 5,
    verificationCompletedSeconds: 150,
    escalationPlanFollowed: 0,
    incomingCallPhoneNumber: '+447700900123',
    location: JSON.stringify({
      GoogleApiAddress: '1 High Street, Leeds, UK',
      W3WAddress: 'index.home.raft',
      Latitude: 53.8,
      Longitude: -1.55,
      GpsGenerated: true,
    }),
    profileSnapshot: JSON.stringify(snap),
    etag: `"${randomUUID()}"`,
    ...row,
  };
  await db.insertInto('alarmReports').values(report).execute();
  const callRows = calls.map((c, k) => ({
    id: c.id ?? randomUUID(),
    alarmReportId: id,
    startTime: c.startTime ?? `2026-11-20T09:58:${String(10 + k).padStart(2, '0')}.000Z`,
    endTime: '2026-11-20T09:59:30.000Z',
    duration: c.duration ?? 42.75,
    line: c.line ?? 'Alarm',
    number: '+447700900123',
    participants: JSON.stringify([{ FullName: 'Carl Controller' }, { FullName: 'Jane Doe' }]),
    alarmCall: (c.line ?? 'Alarm') === 'Alarm' ? 1 : 0,
    conferenceName: c.conferenceName === undefined ? `CF${k}` : c.conferenceName,
    records: JSON.stringify(c.records ?? [{ SId: `RE${randomUUID().replace(/-/g, '').slice(0, 16)}`, Unavailable: false, Reason: null }]),
  }));
  for (const c of callRows) await db.insertInto('alarmCalls').values(c).execute();
  for (const m of memoRows) await db.insertInto('alarmMemos').values(m).execute();
  for (const [k, j] of journal.entries())
    await db
      .insertInto('activityJournal')
      .values({
        id: randomUUID(),
        alarmReportId: id,
        date: j.date ?? `2026-11-20T09:58:${String(20 + k).padStart(2, '0')}.000Z`,
        creator: 'System',
        details: j.details,
        customProperties: j.customProperties,
      })
      .execute();
  for (const [k, n] of notes.entries())
    await db
      .insertInto('alarmNotes')
      .values({
        id: randomUUID(),
        alarmReportId: id,
        note: n.note,
        createdDate: n.createdDate ?? `2026-11-20T11:0${k}:00.000Z`,
        personId: null,
        personFullName: n.personFullName ?? 'Sue Supervisor',
        personRoles: JSON.stringify(n.personRoles ?? ['ARC Supervisor']),
      })
      .execute();
  return { ...report, calls: callRows, memos: memoRows };
}

/** A customer with Alarm Report Intelligence and its auto-generate on unless `settings` turns one off; its name starts `prefix`. */
export function intelligenceCustomer(db: DB, prefix: string, settings: { intel?: boolean; auto?: boolean } = {}, over: Partial<CustomerTable> = {}) {
  return insertCustomer(db, {
    name: `${prefix} ${randomUUID().slice(0, 8)} Ltd`,
    enableAlarmReportIntelligence: settings.intel === false ? 0 : 1,
    autoGenerateAlarmIntelligence: settings.auto === false ? 0 : 1,
    ...over,
  });
}
