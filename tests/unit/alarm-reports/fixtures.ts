// Alarm report answers for the unit tests, checked against the contract's strict schemas so a
// fixture cannot drift from what the server sends.
import * as v from 'valibot';
import { alarmReportDetailsSchema, alarmReportListSchema, type AlarmReportDetails, type AlarmReportRow } from '../../../src/shared/schemas/alarm-reports';

export const ALARM_ID = '0b6f5c1e-8a43-4a55-9d6c-3f1f2b7d9e01';
export const REPORT_ID = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
export const PERSON_ID = '5e4d3c2b-1a09-4887-a665-544332211000';
export const CALL_OK = 'a1111111-1111-4111-8111-111111111111';
export const CALL_FAILED = 'a2222222-2222-4222-8222-222222222222';

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? (T[K] extends unknown[] ? T[K] : DeepPartial<T[K]>) : T[K] };

const named = (Name: string, Value = 1) => ({ Name, Value });
const option = (Name: string) => ({ Id: 1, Name });

export function makeDetail(
  over: {
    person?: DeepPartial<AlarmReportDetails['ProfileSnapshot']['Person']>;
    snapshot?: DeepPartial<AlarmReportDetails['ProfileSnapshot']>;
  } & Partial<AlarmReportDetails> = {},
): AlarmReportDetails {
  const { person, snapshot, ...top } = over;
  const d: AlarmReportDetails = {
    Id: REPORT_ID,
    AlarmId: ALARM_ID,
    Etag: 'etag-1',
    Location: {
      GoogleApiAddress: '209 Broad Street, Salisbury SP15 9PL, UK',
      W3WAddress: 'jigsaw.marble.jacket',
      Latitude: 51.04312,
      Longitude: -1.78798,
      GpsGenerated: true,
    },
    AlarmDevice: { Type: named('SG750', 750), Serial: 'SG7502000566' },
    AlarmStared: '2026-11-22T21:36:12.000Z',
    AlarmClosed: '2026-11-22T21:53:12.000Z',
    AlarmType: named('Red Alert', 5),
    VerificationType: named('Real Incident', 1),
    VerificationCategory: named('Accident/Illness/Injury', 105),
    EscalationPlanFollowed: false,
    AlarmIncomingCallPhoneNumber: '+447491813523',
    CustomerAccountFullName: 'Heron Transport Ltd',
    Tier: named('Gold', 3),
    ArcControllerFullName: 'Katie Alexander',
    VerificationStartedSeconds: 8,
    VerificationCompletedSeconds: 300,
    ProfileSnapshot: {
      Person: {
        Id: PERSON_ID,
        FirstName: 'Samuel',
        LastName: 'Pritchard',
        Company: { Name: 'Heron Transport Ltd', IsEurowatch: false, IsGlobalResponse: false, IsTranslationServices: false, IsNationalResponse: false },
        Contact: { WorkPhoneNumber: { CountryCode: '44', Number: '7961466268' }, PersonalPhoneNumber: null, EmailAddress: 'samuel@example.test' },
        EmergencyContacts: [{ FirstName: 'Paul', LastName: 'Saunders', Relationship: 'Neighbour', PhoneNumber: { CountryCode: '44', Number: '7820095688' } }],
        Title: option('Mr'),
        JobSector: option('Transport and Logistics'),
        JobRole: option('Bus Driver'),
        JobTitle: 'Bus Driver',
        RiskProfiles: [],
        VehicleInformation: { VehicleOwnedOrUsed: true, VehicleRegistration: 'NL73 DMB', Color: option('Brown'), Make: option('BMW'), Model: '3 Series' },
        PersonalDetails: { DateOfBirth: '1980-05-01', Gender: option('Male'), HomeAddress: null, WorkAddress: null },
        MedicalInformation: { HearingImpairment: false, HearingImpairmentLevel: null, BloodType: option('O+'), MedicalConditions: [] },
        Ethnicity: option('White British'),
        PhysicalInformation: {
          Height: { Unit: 'centimeters', CentimeterValue: 180, FeetValue: 5, InchValue: 11 },
          HairColor: option('Brown'),
          EyeColor: option('Blue'),
          DistinguishingFeatures: [],
        },
        ...(person as object),
      } as AlarmReportDetails['ProfileSnapshot']['Person'],
      SnapshotDate: '2026-11-22T21:35:42.000Z',
      PrimaryTeamAlarmInstruction: { SpecialInstructions: [], DuressWordsActive: false, DuressWords: { Monitor: 'granite', CallPolice: 'orchid' } },
      Devices: [{ Id: 'd1', Type: named('SG750', 750), Serial: 'SG7502000566', PhoneNumber: '+447491813523', LastKnownBattery: 43 }],
      TeamWithEscalationPlan: [
        { Team: { Name: 'Zeta team', PrimaryGroup: false }, EscalationPlan: { Name: 'A plan', Instructions: [] }, DefaultEscalationPlan: false },
        {
          Team: { Name: 'Outreach', PrimaryGroup: true },
          EscalationPlan: {
            Name: 'Out of hours escalation',
            Instructions: [
              { Instruction: 'Call the on-call officer.', Contact: { InstructionContactName: 'Leah James', CountryCode: '44', Value: '1722334637' } },
            ],
          },
          DefaultEscalationPlan: false,
        },
        { Team: { Name: 'Beta team', PrimaryGroup: false }, EscalationPlan: { Name: 'Z default plan', Instructions: [] }, DefaultEscalationPlan: true },
      ],
      MemosAndActivities: {
        ActivitiesWithMemos: [
          {
            Id: 'm1',
            StartDate: '2026-11-22T20:34:12.000Z',
            DurationInMinutes: 90,
            DisplayName: { Name: 'Repair appointment' },
            TextMemo: 'Visiting tenant at flat 3.',
            VoiceMemoId: 'c0ffee00-0000-4000-8000-000000000001',
          },
        ],
      },
      ...(snapshot as object),
    } as AlarmReportDetails['ProfileSnapshot'],
    ActivityJournal: {
      AdditionalNoteList: [
        {
          Id: 'n1',
          Note: 'Called back, all fine.',
          CreatedDate: '2026-11-22T22:00:00.000Z',
          Person: { FullName: 'Sam Supervisor', Roles: ['ArcControllerRole', 'ArcSupervisorRole'] },
        },
      ],
      Activities: [
        {
          Id: 'j1',
          Date: '2026-11-22T21:36:12.000Z',
          Creator: 'System',
          Details: 'Alarm raised: Red Alert',
          CustomProperties: '{"kind":"alarmType","trigger":"Red Alert"}',
        },
        { Id: 'j2', Date: '2026-11-22T21:37:00.000Z', Creator: 'System', Details: 'Broken entry', CustomProperties: '{not json' },
      ],
    },
    Calls: [
      {
        Id: CALL_OK,
        StartTime: '2026-11-22T21:36:14.000Z',
        EndTime: '2026-11-22T21:41:17.000Z',
        Duration: 303.87,
        Line: 'Alarm',
        Number: '+447491813523',
        CallParticipants: [{ FullName: 'Katie Alexander' }],
        AlarmCall: true,
        ConferenceName: 'CF1',
        Records: [
          { SId: 'RE1', Unavailable: false, Reason: null },
          { SId: 'RE2', Unavailable: true, Reason: 'Recording deleted after the retention period' },
        ],
      },
      {
        Id: CALL_FAILED,
        StartTime: '2026-11-22T21:42:44.000Z',
        EndTime: '2026-11-22T21:42:44.000Z',
        Duration: 0,
        Line: 'Outbound Second Line',
        Number: '+447820095688',
        CallParticipants: [],
        AlarmCall: false,
        ConferenceName: 'CF2',
        Records: [],
      },
    ],
    ...top,
  };
  return v.parse(alarmReportDetailsSchema, d);
}

export function makeRow(i: number, over: Partial<AlarmReportRow> = {}): AlarmReportRow {
  const id = (n: number) => `${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`;
  return {
    AlarmReportId: id(i),
    AlarmId: id(i + 5000),
    AlarmClosedDate: '2026-11-22T21:53:12.000Z',
    CustomerAccountFullName: `Account ${i}`,
    Tier: { Name: 'Gold', Value: 3 },
    AlarmType: { Name: 'SOS Button', Value: 1 },
    AlarmVerificationType: { Name: 'Real Incident', Value: 1 },
    AlarmVerificationCategory: { Name: 'Violence', Value: 101 },
    PersonFullName: `Person ${i}`,
    DeviceType: { Name: 'SG750', Value: 750 },
    ArcControllerFullName: 'Katie Alexander',
    ...over,
  };
}

export const listAnswer = (rows: AlarmReportRow[], total = rows.length) => v.parse(alarmReportListSchema, { AlarmReports: rows, TotalCount: total });
