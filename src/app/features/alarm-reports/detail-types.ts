// The alarm report detail as the sections read it (spec §3 "Alarm report detail" and the snapshot
// entities). Provisional until the contract lands; then these become the contract's types.
type Named = { Name?: string | null } | null;
type Phone = { CountryCode?: string | null; Number?: string | null } | null;
type Address = { AddressLine1?: string | null; AddressLine2?: string | null } | null;

export type Detail = {
  Id: string;
  AlarmId: string;
  Etag?: string;
  Location?: { GoogleApiAddress?: string | null; W3WAddress?: string | null; Latitude?: number | null; Longitude?: number | null; GpsGenerated?: boolean | null } | null;
  AlarmDevice?: { Type?: Named; Serial?: string | null } | null;
  AlarmStared?: string | null;
  AlarmClosed?: string | null;
  AlarmType?: Named;
  VerificationType?: Named;
  VerificationCategory?: Named;
  EscalationPlanFollowed?: boolean | null;
  AlarmIncomingCallPhoneNumber?: string | null;
  ProfileSnapshot?: {
    Person?: {
      Id?: string;
      FirstName?: string | null;
      LastName?: string | null;
      Company?: (Named & { IsEurowatch?: boolean | null; IsGlobalResponse?: boolean | null; IsTranslationServices?: boolean | null; IsNationalResponse?: boolean | null }) | null;
      MedicalInformation?: { HearingImpairment?: boolean | null; HearingImpairmentLevel?: string | null; MedicalConditions?: { Id?: number | string; Name?: string | null }[] | null } | null;
      RiskProfiles?: { Id?: number | string; Name?: string | null }[] | null;
      EmergencyContacts?: { FirstName?: string | null; LastName?: string | null; Relationship?: string | null; PhoneNumber?: Phone }[] | null;
      Contact?: { WorkPhoneNumber?: Phone; PersonalPhoneNumber?: Phone; EmailAddress?: string | null } | null;
      PersonalDetails?: { WorkAddress?: Address; HomeAddress?: Address } | null;
      JobSector?: Named;
      JobRole?: Named;
      JobTitle?: string | null;
      VehicleInformation?: { VehicleOwnedOrUsed?: boolean | null; VehicleRegistration?: string | null; Make?: Named; Model?: string | null; Color?: Named } | null;
    } | null;
    SnapshotDate?: string | null;
    PrimaryTeamAlarmInstruction?: { SpecialInstructions?: string[] | null; DuressWordsActive?: boolean | null; DuressWords?: { Monitor?: string | null; CallPolice?: string | null } | null } | null;
    Devices?: { Id?: string; Type?: (Named & { Value?: number }) | null; Serial?: string | null; PhoneNumber?: string | null; LastKnownBattery?: number | null }[] | null;
    TeamWithEscalationPlan?: {
      Team?: { Name?: string | null; PrimaryGroup?: boolean | null } | null;
      EscalationPlan?: { Name?: string | null; Instructions?: { Instruction?: string | null; Contact?: { InstructionContactName?: string | null; CountryCode?: string | null; Value?: string | null } | null }[] | null } | null;
      DefaultEscalationPlan?: boolean | null;
    }[] | null;
    MemosAndActivities?: { ActivitiesWithMemos?: { Id: string; StartDate?: string | null; DurationInMinutes?: number | null; DisplayName?: Named; TextMemo?: string | null; VoiceMemoId?: string | null }[] | null } | null;
  } | null;
  ActivityJournal?: {
    AdditionalNoteList?: { Id: string; Note?: string | null; CreatedDate?: string | null; Person?: { FullName?: string | null; Roles?: string[] | null } | null }[] | null;
    Activities?: { Date?: string | null; Creator?: string | null; Details?: string | null; CustomProperties?: string | null }[] | null;
  } | null;
  Calls?: {
    Id: string;
    StartTime?: string | null;
    EndTime?: string | null;
    Duration?: number | null;
    Line?: string | null;
    Number?: string | null;
    CallParticipants?: { FullName?: string | null }[] | null;
    AlarmCall?: boolean | null;
    ConferenceName?: string | null;
    Records?: { SId: string; Unavailable?: boolean | null; Reason?: string | null }[] | null;
  }[] | null;
};

export type Call = NonNullable<Detail['Calls']>[number];
export type Memo = NonNullable<NonNullable<NonNullable<Detail['ProfileSnapshot']>['MemosAndActivities']>['ActivitiesWithMemos']>[number];
export type Note = NonNullable<NonNullable<Detail['ActivityJournal']>['AdditionalNoteList']>[number];
