// The stored profile snapshot (JSON, written when the alarm closed) brought into the contract's
// exact shape (ProfileSnapshot in src/shared/schemas/alarm-reports.ts): known fields are copied,
// missing or malformed ones become null / false / [] and unknown ones are dropped, so an old or
// hand-edited snapshot never breaks the detail page.
import type { ProfileSnapshot, SnapshotPerson } from '../../../shared/schemas/alarm-reports.js';

type Obj = Record<string, unknown>;
const obj = (x: unknown): Obj => (x && typeof x === 'object' && !Array.isArray(x) ? (x as Obj) : {});
const arr = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);
const str = (x: unknown): string | null => (typeof x === 'string' ? x : typeof x === 'number' ? String(x) : null);
const s = (x: unknown) => str(x) ?? '';
const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
const bool = (x: unknown) => x === true;
const idOf = (x: unknown): number | string => (typeof x === 'number' || typeof x === 'string' ? x : 0);
const isObj = (x: unknown) => !!x && typeof x === 'object' && !Array.isArray(x);

/** { Id, Name } or null. */
const option = (x: unknown) => {
  if (!isObj(x)) return null;
  const o = obj(x);
  const name = str(o.Name);
  return name === null ? null : { Id: idOf(o.Id), Name: name };
};
const options = (x: unknown) => arr(x).flatMap((y) => (option(y) ? [option(y)!] : []));
const phone = (x: unknown) => {
  if (!isObj(x)) return null;
  const o = obj(x);
  return str(o.Number) === null ? null : { CountryCode: s(o.CountryCode), Number: s(o.Number) };
};
const address = (x: unknown) => {
  if (!isObj(x)) return null;
  const o = obj(x);
  const c = obj(o.Country);
  return {
    AddressLine1: s(o.AddressLine1),
    AddressLine2: str(o.AddressLine2),
    City: str(o.City),
    County: str(o.County),
    PostCode: str(o.PostCode),
    Country: str(c.Name) === null ? null : { Id: s(c.Id), Name: s(c.Name), Code: s(c.Code) },
  };
};

function person(x: unknown, fallback: { personId: string | null; personFullName: string; company: string }): SnapshotPerson {
  const p = obj(x);
  const company = obj(p.Company);
  const contact = obj(p.Contact);
  const vehicle = obj(p.VehicleInformation);
  const details = obj(p.PersonalDetails);
  const medical = obj(p.MedicalInformation);
  const physical = obj(p.PhysicalInformation);
  const height = obj(physical.Height);
  const [first = '', ...rest] = fallback.personFullName.split(' ');
  return {
    Id: str(p.Id) ?? fallback.personId ?? '',
    FirstName: str(p.FirstName) ?? first,
    LastName: str(p.LastName) ?? rest.join(' '),
    Company: {
      Name: str(company.Name) ?? fallback.company,
      IsEurowatch: bool(company.IsEurowatch),
      IsGlobalResponse: bool(company.IsGlobalResponse),
      IsTranslationServices: bool(company.IsTranslationServices),
      IsNationalResponse: bool(company.IsNationalResponse),
    },
    Contact: {
      WorkPhoneNumber: phone(contact.WorkPhoneNumber),
      PersonalPhoneNumber: phone(contact.PersonalPhoneNumber),
      EmailAddress: str(contact.EmailAddress),
    },
    EmergencyContacts: arr(p.EmergencyContacts).map((e) => {
      const o = obj(e);
      return {
        FirstName: s(o.FirstName),
        LastName: s(o.LastName),
        Relationship: s(o.Relationship),
        PhoneNumber: phone(o.PhoneNumber) ?? { CountryCode: '', Number: '' },
      };
    }),
    Title: option(p.Title),
    JobSector: option(p.JobSector),
    JobRole: option(p.JobRole),
    JobTitle: str(p.JobTitle),
    RiskProfiles: options(p.RiskProfiles),
    VehicleInformation: {
      VehicleOwnedOrUsed: bool(vehicle.VehicleOwnedOrUsed),
      VehicleRegistration: str(vehicle.VehicleRegistration),
      Color: option(vehicle.Color),
      Make: option(vehicle.Make),
      Model: str(vehicle.Model),
    },
    PersonalDetails: {
      DateOfBirth: str(details.DateOfBirth),
      Gender: option(details.Gender),
      HomeAddress: address(details.HomeAddress),
      WorkAddress: address(details.WorkAddress),
    },
    MedicalInformation: {
      HearingImpairment: bool(medical.HearingImpairment),
      HearingImpairmentLevel: str(medical.HearingImpairmentLevel) ?? option(medical.HearingImpairmentLevel)?.Name ?? null,
      BloodType: option(medical.BloodType),
      MedicalConditions: options(medical.MedicalConditions),
    },
    Ethnicity: option(p.Ethnicity),
    PhysicalInformation: {
      Height:
        num(height.CentimeterValue) === null
          ? null
          : {
              Unit: height.Unit === 'feet' ? 'feet' : 'centimeters',
              CentimeterValue: num(height.CentimeterValue) ?? 0,
              FeetValue: num(height.FeetValue) ?? 0,
              InchValue: num(height.InchValue) ?? 0,
            },
      HairColor: option(physical.HairColor),
      EyeColor: option(physical.EyeColor),
      DistinguishingFeatures: arr(physical.DistinguishingFeatures).map((f) => {
        const o = obj(f);
        return { Id: idOf(o.Id), Name: s(o.Name), AdditionalInformation: str(o.AdditionalInformation) };
      }),
    },
  };
}

export function snapshotDto(raw: unknown, fallback: { personId: string | null; personFullName: string; company: string }): ProfileSnapshot {
  const x = obj(raw);
  const instr = isObj(x.PrimaryTeamAlarmInstruction) ? obj(x.PrimaryTeamAlarmInstruction) : null;
  const duress = obj(instr?.DuressWords);
  return {
    Person: person(x.Person, fallback),
    SnapshotDate: s(x.SnapshotDate),
    PrimaryTeamAlarmInstruction: instr && {
      SpecialInstructions: arr(instr.SpecialInstructions).flatMap((i) => (typeof i === 'string' ? [i] : [])),
      DuressWordsActive: bool(instr.DuressWordsActive),
      DuressWords: isObj(instr.DuressWords) ? { Monitor: s(duress.Monitor), CallPolice: s(duress.CallPolice) } : null,
    },
    Devices: arr(x.Devices).map((d) => {
      const o = obj(d);
      const t = obj(o.Type);
      return {
        Id: s(o.Id),
        Type: { Name: s(t.Name), Value: num(t.Value) ?? 0 },
        Serial: s(o.Serial),
        PhoneNumber: str(o.PhoneNumber),
        LastKnownBattery: num(o.LastKnownBattery),
      };
    }),
    TeamWithEscalationPlan: arr(x.TeamWithEscalationPlan).map((t) => {
      const o = obj(t);
      const team = obj(o.Team);
      const plan = obj(o.EscalationPlan);
      return {
        Team: { Name: s(team.Name), PrimaryGroup: bool(team.PrimaryGroup) },
        EscalationPlan: {
          Name: s(plan.Name),
          Instructions: arr(plan.Instructions).map((i) => {
            const io = obj(i);
            const c = obj(io.Contact);
            return {
              Instruction: s(io.Instruction),
              Contact: { InstructionContactName: s(c.InstructionContactName), CountryCode: s(c.CountryCode), Value: s(c.Value) },
            };
          }),
        },
        DefaultEscalationPlan: bool(o.DefaultEscalationPlan),
      };
    }),
    MemosAndActivities: {
      ActivitiesWithMemos: arr(obj(x.MemosAndActivities).ActivitiesWithMemos).map((m) => {
        const o = obj(m);
        return {
          Id: s(o.Id),
          StartDate: s(o.StartDate),
          DurationInMinutes: num(o.DurationInMinutes) ?? 0,
          DisplayName: { Name: s(obj(o.DisplayName).Name) },
          TextMemo: str(o.TextMemo),
          VoiceMemoId: str(o.VoiceMemoId),
        };
      }),
    },
  };
}
