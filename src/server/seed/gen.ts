// Value generators for the demo data: UK names, addresses, phone numbers, device identifiers
// (IMEI, ICCID, IMSI, serials) and the lone-worker profile. All take a seeded Rng.
import { Rng } from './rng.js';
import { entryOf, itemAt } from './lists.js';
import { PHONE_TYPE } from '../../shared/codes.js';
import { SERIAL_PREFIX, serialDigits } from '../../shared/serials.js';
import {
  BLOOD_TYPES,
  BUSINESS_PLACES,
  DISTINGUISHING_FEATURES,
  ETHNICITIES,
  EYE_COLORS,
  FIRST_NAMES_F,
  FIRST_NAMES_M,
  GENDERS,
  HAIR_COLORS,
  HEARING_LEVELS,
  JOB_ROLES,
  JOB_SECTORS,
  JOB_TITLE_PREFIXES,
  LAST_NAMES,
  LOCALITIES,
  MEDICAL_CONDITIONS,
  POSTCODE_LETTERS,
  RISK_PROFILES,
  STREET_NAMES,
  STREET_TYPES,
  TITLES,
  TOWNS,
  VEHICLE_COLORS,
  VEHICLE_MAKES,
  W3W_WORDS,
  type Town,
} from './data.js';

export const GB = { Id: 'country-gb', Name: 'United Kingdom', Code: 'GB' } as const;

// ---------- check digits ----------

/** Luhn check digit for a string of digits (the digit to append). */
export function luhnDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = body.charCodeAt(body.length - 1 - i) - 48;
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/** True when the whole digit string passes the Luhn check. */
export function luhnValid(s: string): boolean {
  return /^\d{2,}$/.test(s) && luhnDigit(s.slice(0, -1)) === s.slice(-1);
}

/** Bijective scramble of n in [0, mod): mod must share no factor with the (prime) multiplier; mod × mult < 2^53. */
export const scramble = (n: number, mod: number, offset: number, mult = 7919) => ((((n % mod) * mult + offset) % mod) + mod) % mod;

// ---------- phone numbers ----------

/**
 * UK mobile number blocks (after +44) that libphonenumber-js accepts as MOBILE: 074xx, 075xx and
 * 077xx–079xx, the common ones. 07700 (reserved for drama), 076xx (pagers, Isle of Man) and 07911
 * (partly unallocated) are avoided.
 */
const MOBILE_BLOCKS: string[] = [];
for (let p = 7400; p < 8000; p++) if ((p < 7600 || p > 7700) && p !== 7911) MOBILE_BLOCKS.push(String(p));
export const MOBILE_SPACE = MOBILE_BLOCKS.length * 1_000_000;

/** Random UK mobile, national significant number (no leading 0), e.g. '7412345678'. */
export const ukMobile = (rng: Rng) => rng.pick(MOBILE_BLOCKS) + rng.digits(6);
/** The k-th mobile of the block space (0 ≤ k < MOBILE_SPACE): distinct k give distinct numbers. */
export const ukMobileAt = (k: number) => MOBILE_BLOCKS[Math.floor(k / 1_000_000)] + String(k % 1_000_000).padStart(6, '0');

const TWO_DIGIT_LOCAL: Record<string, string[]> = { '20': ['7', '8', '3'], '29': ['20'], '24': ['76'], '23': ['80', '92'], '28': ['90', '71'] };
/** Landline of the town, national significant number, e.g. '1612345678'. */
export function ukLandline(rng: Rng, town: Town): string {
  const code = town[3];
  let n = code;
  if (code.length === 2) n += rng.pick(entryOf(TWO_DIGIT_LOCAL, code, 'local number prefixes'));
  else if (code.length === 3) n += code === '115' ? '2' : rng.pick(['2', '3', '4']);
  else n += String(rng.int(2, 8));
  return n + rng.digits(10 - n.length);
}
export const e164 = (nsn: string) => `+44${nsn}`;

// ---------- names and places ----------

export type Name = { firstName: string; lastName: string; gender: 'Male' | 'Female' };
export function personName(rng: Rng): Name {
  const female = rng.chance(0.5);
  return {
    firstName: female ? rng.pick(FIRST_NAMES_F) : rng.pick(FIRST_NAMES_M),
    lastName: rng.pick(LAST_NAMES),
    gender: female ? 'Female' : 'Male',
  };
}

/** Weighted towns: the big cities come up more often. */
const TOWN_WEIGHTS: [Town, number][] = TOWNS.map((t) => [t, t[3].length <= 3 ? 3 : 1]);
export const pickTown = (rng: Rng) => rng.weighted(TOWN_WEIGHTS);

export function postcode(rng: Rng, town: Town): string {
  const area = town[2];
  const district = area.length === 1 ? rng.int(1, 28) : rng.int(1, 19);
  return `${area}${district} ${rng.int(1, 9)}${POSTCODE_LETTERS[rng.int(0, POSTCODE_LETTERS.length - 1)]}${POSTCODE_LETTERS[rng.int(0, POSTCODE_LETTERS.length - 1)]}`;
}

export type Address = { line1: string; line2: string | null; city: string; county: string; postCode: string; town: Town };
export const street = (rng: Rng) => `${rng.pick(STREET_NAMES)} ${rng.pick(STREET_TYPES)}`;

export function homeAddress(rng: Rng, town: Town): Address {
  const flat = rng.chance(0.25);
  return {
    line1: flat ? `Flat ${rng.int(1, 40)}, ${rng.int(1, 120)} ${street(rng)}` : `${rng.int(1, 240)} ${street(rng)}`,
    line2: rng.chance(0.4) ? rng.pick(LOCALITIES) : null,
    city: town[0],
    county: town[1],
    postCode: postcode(rng, town),
    town,
  };
}

export function businessAddress(rng: Rng, town: Town): Address {
  const place = rng.chance(0.6);
  return {
    line1: place ? `${rng.chance(0.5) ? `Unit ${rng.int(1, 30)}, ` : ''}${rng.pick(BUSINESS_PLACES)}` : `${rng.int(1, 300)} ${street(rng)}`,
    line2: place ? `${rng.int(1, 200)} ${street(rng)}` : rng.chance(0.3) ? rng.pick(LOCALITIES) : null,
    city: town[0],
    county: town[1],
    postCode: postcode(rng, town),
    town,
  };
}

export const oneLine = (a: Address) => [a.line1, a.line2, `${a.city} ${a.postCode}`].filter(Boolean).join(', ');

/** A point near the town (within a few km). */
export function nearTown(rng: Rng, town: Town) {
  return {
    lat: Math.round((town[4] + rng.float(-0.04, 0.04)) * 1e6) / 1e6,
    lng: Math.round((town[5] + rng.float(-0.06, 0.06)) * 1e6) / 1e6,
  };
}
export const w3w = (rng: Rng) => `///${rng.pick(W3W_WORDS)}.${rng.pick(W3W_WORDS)}.${rng.pick(W3W_WORDS)}`;
export const gridReference = (rng: Rng, town: Town) => `${town[6]} ${rng.digits(5)} ${rng.digits(5)}`;

/** UK registration plate, current format: 'AB19 XYZ'. */
export function registration(rng: Rng): string {
  const L = 'ABCDEFGHJKLMNOPRSTUVWXY';
  const age = rng.pick(['15', '16', '17', '18', '19', '20', '21', '22', '23', '24', '65', '66', '67', '68', '69', '70', '71', '72', '73']);
  const l = () => L[rng.int(0, L.length - 1)];
  return `${l()}${l()}${age} ${l()}${l()}${l()}`;
}

// ---------- the person profile (spec doc 1 section 3, "Person read view") ----------

const opt = (list: readonly string[], name: string) => ({ Id: list.indexOf(name) + 1, Name: name });
const pickOpt = (rng: Rng, list: readonly string[]) => opt(list, rng.pick(list));

export type Phone = { CountryCode: string; Number: string; IsPrimary: boolean; Type: number };

const addressJson = (a: Address) => ({
  AddressLine1: a.line1,
  AddressLine2: a.line2,
  City: a.city,
  County: a.county,
  PostCode: a.postCode,
  Country: GB,
});

/**
 * The full profile stored in persons.profile (PascalCase, as the spec's read view) and reused in
 * alarm report snapshots. `work` is where the person works (the customer's or provider's town).
 */
export function personProfile(rng: Rng, name: Name, work: { town: Town; address?: Address; sector?: number; jobTitle?: string }, now: Date) {
  const sector = work.sector ?? rng.int(0, JOB_SECTORS.length - 1);
  const roles = itemAt(JOB_ROLES, sector);
  const role = rng.pick(roles);
  const age = rng.int(19, 66);
  const dob = new Date(Date.UTC(now.getUTCFullYear() - age, rng.int(0, 11), rng.int(1, 28)));
  const title =
    name.gender === 'Female'
      ? rng.weighted([
          ['Mrs', 3],
          ['Miss', 2],
          ['Ms', 3],
          ['Dr', 0.4],
          ['Mx', 0.2],
        ] as const)
      : rng.weighted([
          ['Mr', 10],
          ['Dr', 0.5],
          ['Mx', 0.2],
        ] as const);
  const hasVehicle = rng.chance(0.55);
  const make = rng.pick(VEHICLE_MAKES);
  const hearing = rng.chance(0.06);
  const cm = name.gender === 'Female' ? Math.round(163 + rng.normal() * 7) : Math.round(177 + rng.normal() * 7);
  const totalInches = Math.round(cm / 2.54);
  const homeTown = rng.chance(0.8) ? work.town : rng.pick(TOWNS);
  const features = rng.chance(0.3) ? rng.sample(DISTINGUISHING_FEATURES, rng.int(1, 2)) : [];
  return {
    Title: opt(TITLES, title),
    JobSector: opt(JOB_SECTORS, itemAt(JOB_SECTORS, sector)),
    JobRole: { Id: sector * 10 + roles.indexOf(role) + 1, Name: role },
    JobTitle: work.jobTitle ?? `${rng.pick(JOB_TITLE_PREFIXES)}${role}`,
    RiskProfiles: rng
      .sample(
        RISK_PROFILES,
        rng.weighted([
          [0, 2],
          [1, 4],
          [2, 3],
          [3, 1],
        ] as const),
      )
      .map((n) => opt(RISK_PROFILES, n)),
    VehicleInformation: hasVehicle
      ? {
          VehicleOwnedOrUsed: true,
          VehicleRegistration: registration(rng),
          Color: pickOpt(rng, VEHICLE_COLORS),
          Make: { Id: VEHICLE_MAKES.indexOf(make) + 1, Name: make[0] },
          Model: rng.pick(make[1]),
        }
      : { VehicleOwnedOrUsed: false, VehicleRegistration: null, Color: null, Make: null, Model: null },
    PersonalDetails: {
      DateOfBirth: dob.toISOString().slice(0, 10),
      Gender: opt(GENDERS, name.gender),
      HomeAddress: addressJson(homeAddress(rng, homeTown)),
      WorkAddress: addressJson(work.address ?? businessAddress(rng, work.town)),
    },
    MedicalInformation: {
      HearingImpairment: hearing,
      HearingImpairmentLevel: hearing ? rng.pick(HEARING_LEVELS) : null,
      BloodType: rng.chance(0.7) ? pickOpt(rng, BLOOD_TYPES) : null,
      MedicalConditions: rng.chance(0.25) ? rng.sample(MEDICAL_CONDITIONS, rng.int(1, 2)).map((n) => opt(MEDICAL_CONDITIONS, n)) : [],
    },
    Ethnicity: rng.chance(0.85) ? pickOpt(rng, ETHNICITIES) : null,
    PhysicalInformation: {
      Height: {
        Unit: rng.chance(0.6) ? 'centimeters' : 'feet',
        CentimeterValue: cm,
        FeetValue: Math.floor(totalInches / 12),
        InchValue: totalInches % 12,
      },
      HairColor: pickOpt(rng, HAIR_COLORS),
      EyeColor: pickOpt(rng, EYE_COLORS),
      DistinguishingFeatures: features.map(([n, info]) => ({
        Id: DISTINGUISHING_FEATURES.findIndex((f) => f[1] === info) + 1,
        Name: n,
        AdditionalInformation: info,
      })),
    },
  };
}
export type Profile = ReturnType<typeof personProfile>;

// ---------- device identifiers ----------

/** Type Allocation Codes per device type (8 digits, demo values); types without an IMEI are absent. */
export const TACS: Record<number, string[]> = {
  3: ['35332811', '35672910', '35891406'],
  10: ['35404806', '35404807', '35404808'],
  15: ['86192103', '86192104', '86192105'],
  20: ['35739410', '35739411', '35739412'],
  30: ['86744104', '86744105', '86744106'],
  42: ['35620007', '35620008', '35620009'],
  52: ['35620107', '35620108', '35620109'],
  60: ['86457903', '86457904', '86457905'],
  140: ['35811402', '35811403', '35811404'],
  370: ['86037004', '86037005', '86037006'],
  400: ['30023410', '30023411', '30023412'],
  620: ['86262002', '86262003', '86262004'],
  621: ['86262102', '86262103', '86262104'],
  640: ['86264002', '86264003', '86264004'],
  740: ['86274002', '86274003', '86274004'],
  750: ['86275002', '86275003', '86275004'],
};

/** The n-th IMEI of a device type: TAC + 6-digit serial (scrambled) + Luhn digit. Unique per (type, n) up to 3,000,000. */
export function imeiFor(type: number, n: number, offset: number): string | null {
  const tacs = TACS[type];
  if (!tacs) return null;
  const tac = tacs[Math.floor(n / 1_000_000) % tacs.length];
  const body = tac + String(scramble(n, 1_000_000, offset)).padStart(6, '0');
  return body + luhnDigit(body);
}

export { SERIAL_PREFIX };

/** n-th serial of a type: prefix + base + n*3 + jitter (jitter < 3 keeps them unique). */
export function serialFor(type: number, n: number, base: number, jitter: number): string {
  const width = serialDigits(type);
  return SERIAL_PREFIX[type] + String(base + n * 3 + jitter).padStart(width, '0');
}

/** SIM types the demo devices carry (codes.ts SIM_TYPES). */
export type SimType = 1 | 2 | 3 | 4 | 5 | 6;
/** SIM network per SIM type: ICCID issuer digits and IMSI mobile network code. */
export const SIM_NETWORK: Record<SimType, { iccid: string; mnc: string }> = {
  1: { iccid: '10', mnc: '15' }, // Vodafone
  2: { iccid: '30', mnc: '30' }, // EE
  3: { iccid: '11', mnc: '10' }, // O2
  4: { iccid: '20', mnc: '20' }, // Three
  5: { iccid: '50', mnc: '50' }, // multi-network roaming
  6: { iccid: '33', mnc: '33' }, // eSIM profile
};
/** 19-digit ICCID: 89 44 + issuer + 12 digits + Luhn; unique per n. */
export function iccidFor(simType: SimType, n: number, offset: number): string {
  const body = '8944' + SIM_NETWORK[simType].iccid + String(scramble(n, 1_000_000_000_000, offset)).padStart(12, '0');
  return body + luhnDigit(body);
}
/** 15-digit IMSI: 234 + MNC + 10 digits; unique per n. */
export const imsiFor = (simType: SimType, n: number, offset: number) =>
  '234' + SIM_NETWORK[simType].mnc + String(scramble(n, 10_000_000_000, offset)).padStart(10, '0');

// ---------- a whole person ----------

export type WorkPlace = { town: Town; address: Address; sector: number; jobTitle?: string };
const ADMIN_TITLES = ['Health and Safety Manager', 'Operations Manager', 'Office Manager', 'Safety Lead'] as const;

/**
 * Name, phone numbers and profile of the pidx-th person: a pure function of (seed, pidx, kind,
 * workplace, now), so alarm snapshots regenerate exactly what persons.profile holds.
 */
export function personBundle(seed: number, pidx: number, kind: 'staff' | 'admin' | 'worker', work: WorkPlace, now: Date) {
  const rng = new Rng(seed, 'person', pidx);
  const name: Name = personName(rng);
  const workPhone = ukMobile(rng);
  const personalPhone = rng.chance(0.45) ? ukMobile(rng) : null;
  const office = rng.chance(0.2) ? ukLandline(rng, work.town) : null;
  const primary = personalPhone && rng.chance(0.15) ? PHONE_TYPE.Personal : PHONE_TYPE.Work;
  const phones: Phone[] = [{ CountryCode: '44', Number: workPhone, IsPrimary: primary === PHONE_TYPE.Work, Type: PHONE_TYPE.Work }];
  if (personalPhone) phones.push({ CountryCode: '44', Number: personalPhone, IsPrimary: primary === PHONE_TYPE.Personal, Type: PHONE_TYPE.Personal });
  if (office) phones.push({ CountryCode: '44', Number: office, IsPrimary: false, Type: PHONE_TYPE.Office });
  const atBase = kind !== 'worker' || rng.chance(0.7);
  const inSector = kind !== 'worker' || rng.chance(0.7);
  const jobTitle = kind === 'admin' ? rng.pick(ADMIN_TITLES) : work.jobTitle;
  const profile = personProfile(
    rng,
    name,
    { town: work.town, address: atBase ? work.address : undefined, sector: inSector ? work.sector : undefined, jobTitle },
    now,
  );
  return { name, phones, profile, workPhone, personalPhone };
}
