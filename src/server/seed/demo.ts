// The deterministic demo data set: provider staff (with the demo sign-ins), customers with their
// subscriptions, administrators and lone workers, device stock with configurations and messages,
// and closed alarm reports with full profile snapshots, calls, memos, journals and notes.
//
// Same seed + scale + now → identical rows, ids included (every id comes from a seeded PRNG).
// Rows are generated and inserted in batches inside one transaction (all or nothing: `hasData`
// only turns true once the whole set is committed); only the small facts later phases need
// (customers, staff, lone workers and their devices) are kept in memory.
import { optimizeSearchIndex } from '../modules/search/maintenance.js';
import { isPostgres, sql, type DB } from '../db/index.js';
import { DEVICE_COLUMNS } from '../db/schema.js';
import { hashPassword } from '../auth/password.js';
import { ROLE_IDS, ROLE_LABELS, type RoleName } from '../../shared/permissions.js';
import { DEVICE_CAPABILITIES, CAPABILITY, PHONE_TYPE } from '../../shared/codes.js';
import { DEMO_ACCOUNTS } from './accounts.js';
import { seedDemoSchedules } from './schedules.js';
import { seedCrmDirectory } from './crm.js';
import { seedHeldEmails } from './email-backlog.js';
import { PROVIDER_TENANT_ID } from './ids.js';
import { Rng } from './rng.js';
import { entryOf, itemAt, zip } from './lists.js';
import { BatchInserter, settleInserters } from './insert.js';
import { pgBulkLoad } from './pg-bulk.js';
import {
  ACCOUNT_MANAGERS,
  COMPANY_PREFIXES,
  COMPANY_SUFFIXES,
  DEVICE_SUPPLIERS,
  DURESS_WORDS,
  ESCALATION_INSTRUCTIONS,
  ESCALATION_PLAN_NAMES,
  INSTRUCTION_CONTACT_ROLES,
  INTERNAL_ACCOUNT_NAMES,
  JOB_SECTORS,
  REGION_QUALIFIERS,
  SPECIAL_INSTRUCTIONS,
  SUCCESS_MANAGERS,
  TEAM_NAMES,
  TOWNS,
} from './data.js';
import {
  businessAddress,
  e164,
  iccidFor,
  imeiFor,
  imsiFor,
  MOBILE_SPACE,
  nearTown,
  personBundle,
  personName,
  pickTown,
  scramble,
  serialFor,
  ukLandline,
  ukMobile,
  ukMobileAt,
} from './gen.js';
import type { CustomerRef, StaffRef, Team, WorkerRef } from './model.js';
import { generateAlarmReports } from './alarms.js';
import { autoGenerateFeaturesOn } from '../modules/alarm-reports/analysis.js';
import { ARC_NUMBER } from './data.js';
import { rebuildDailyUsage, rebuildTypeFirmware } from '../modules/live/daily-usage.js';
import { newestFirmware } from '../../shared/firmware.js';
export { ARC_NUMBER };

export type DemoOptions = { seed: number; scale: number; password: string; log: (e: Record<string, unknown>) => void; now: Date };

/** Tables the demo data fills, children before parents (the order `seed --reset` deletes in). */
export const DEMO_TABLES = [
  'reportScheduleRuns',
  'reportSchedules',
  'alarmReportAnalyses',
  'alarmNotes',
  'activityJournal',
  'alarmMemos',
  'alarmCalls',
  'alarmReports',
  'deviceDailyUsage',
  'deviceMessages',
  'desiredConfigurations',
  'deviceConfigurations',
  'devices',
  'deviceSubscriptions',
  'appSubscriptions',
  'customers',
  'refreshTokens',
  'verificationCodes',
  'personRoles',
  'persons',
  'outbox',
  'outboxAttachments',
  'auditLog',
  'crmAccounts',
] as const;
/** Rows generated per table. */
export type DemoCounts = Record<(typeof DEMO_TABLES)[number], number>;

/** Base sizes at scale 1 (scale multiplies all of them). */
export const BASE_COUNTS = { customers: 2_000, devices: 100_000, persons: 20_000, alarmReports: 50_000 } as const;

/** Call button types used in device configurations (call1Type / call2Type). */
export const CALL_BUTTON_TYPES = [
  { Value: 1, Name: 'Alarm Receiving Centre' },
  { Value: 2, Name: 'Custom number' },
  { Value: 3, Name: 'Disabled' },
] as const;

/** Firmware versions per device type; the last four of the fall-detection SG types are the "newer" firmware set. */
export const FIRMWARE: Record<number, string[]> = {
  3: ['6.11.2', '6.12.0', '6.13.1'],
  10: ['7.2.4', '7.3.1'],
  15: ['EV07B_3.1.12', 'EV07B_3.2.05'],
  20: ['TWX-2.4.1', 'TWX-2.5.0'],
  30: ['T4-2.08', 'T4-2.11'],
  42: ['1.0.9', '1.1.2'],
  52: ['2.0.3', '2.1.0'],
  60: ['SC-4.0.7'],
  140: ['1.4.2', '1.5.0'],
  370: ['2.1.3', '2.2.0'],
  400: ['3.20', '3.31'],
  620: ['3.8.5', '3.9.1'],
  621: ['4.2.7', '4.3.1', '5.0.2', '5.1.0'],
  640: ['4.2.7', '4.3.1', '4.4.0', '5.0.2', '5.1.0', '5.1.4', '5.2.0'],
  740: ['3.8.5', '3.9.1'],
  750: ['4.3.1', '4.4.0', '5.1.4', '5.2.0'],
};
export const NEWER_FIRMWARE = ['5.0.2', '5.1.0', '5.1.4', '5.2.0'];

const TYPE_POPULARITY: [number, number][] = [
  [640, 24],
  [750, 14],
  [621, 8],
  [10, 7],
  [3, 9],
  [30, 4],
  [20, 4],
  [15, 3],
  [370, 4],
  [140, 4],
  [42, 2],
  [52, 2],
  [60, 2],
  [70, 2],
  [400, 2],
  [620, 2],
  [740, 2],
  [803, 1],
  [804, 1],
  [810, 2],
];
/** Statuses of devices that sit in a customer's account, and of stock (no customer); weights in % of all devices. */
const HELD_STATUSES: [[3, number], ...[number, number][]] = [
  [3, 60],
  [4, 1.5],
  [10, 1],
  [11, 0.5],
  [12, 0.5],
];
const STOCK_STATUSES: [number, number][] = [
  [1, 22],
  [2, 6],
  [5, 4],
  [6, 1.5],
  [7, 2],
  [8, 1],
];
const HELD_SHARE = 0.635;
const NO_SIM = new Set([400, 803, 804, 810]);
const FALL_TYPES = new Set([140, 370, 620, 621, 640, 740, 750]);
const TRACKING_MINUTES = [5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 300, 360];

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const b = (v: boolean) => (v ? 1 : 0);

/** Sector index from a company name (so that a housing trust employs housing officers). */
function sectorOf(name: string, rng: Rng): number {
  const rules: [RegExp, string][] = [
    [/Housing|Homes/, 'Housing'],
    [/Lettings|Estates|Property|Surveyors/, 'Property'],
    [/NHS|Healthcare|Pharmacy|Veterinary|Mental/, 'Healthcare'],
    [/Care|Social|Support|Outreach/, 'Social Care'],
    [/Charity|Foundation/, 'Charity'],
    [/Security|Parking/, 'Security'],
    [/Facilities|Cleaning|Maintenance/, 'Facilities Management'],
    [/Utilities|Water|Gas/, 'Utilities'],
    [/Energy/, 'Energy'],
    [/Logistics|Couriers|Transport|Rail/, 'Transport and Logistics'],
    [/Construction|Engineering/, 'Construction'],
    [/Council/, 'Local Government'],
    [/Environmental|Waste/, 'Environmental Services'],
    [/Retail/, 'Retail'],
  ];
  for (const [re, s] of rules) if (re.test(name)) return JOB_SECTORS.indexOf(s as (typeof JOB_SECTORS)[number]);
  return rng.int(0, JOB_SECTORS.length - 1);
}

/** Splits total over weights (largest remainder, deterministic). */
function apportion(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, w) => a + w, 0) || 1;
  const parts = weights.map((w, i) => {
    const raw = (total * w) / sum;
    return { i, n: Math.floor(raw), rest: raw - Math.floor(raw) };
  });
  const left = total - parts.reduce((a, p) => a + p.n, 0);
  // The units left go one each to the largest remainders first (ties: lower index), round after round.
  const order = [...parts].sort((a, b2) => b2.rest - a.rest || a.i - b2.i);
  if (left > 0) for (const [k, p] of order.entries()) p.n += Math.floor(left / order.length) + b(k < left % order.length);
  return parts.map((p) => p.n);
}

const emailLocal = (n: { firstName: string; lastName: string }) => `${n.firstName}.${n.lastName}`.toLowerCase().replace(/[^a-z.]/g, '');

function uniqueEmail(taken: Set<string>, n: { firstName: string; lastName: string }, domain: string): string {
  const base = emailLocal(n);
  let e = `${base}@${domain}`;
  for (let k = 2; taken.has(e); k++) e = `${base}${k}@${domain}`;
  taken.add(e);
  return e;
}

export async function seedDemoData(db: DB, opts: DemoOptions): Promise<{ ms: number; counts: DemoCounts }> {
  const started = performance.now();
  const { seed, scale, log } = opts;
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`seed: scale must be a positive number (got ${scale})`);
  if (!Number.isFinite(seed)) throw new Error(`seed: seed must be a number (got ${seed})`);
  const passwordHash = await hashPassword(opts.password);

  const nCustomers = Math.max(3, Math.round(BASE_COUNTS.customers * scale));
  const nDevices = Math.max(50, Math.round(BASE_COUNTS.devices * scale));
  const nPersons = Math.max(40, Math.round(BASE_COUNTS.persons * scale));
  const nAlarms = Math.max(20, Math.round(BASE_COUNTS.alarmReports * scale));
  const nStaff = Math.max(DEMO_ACCOUNTS.length + 18, Math.round(nPersons * 0.015));

  let cpu = process.cpuUsage();
  const phase = (name: string, t: number, extra: Record<string, unknown> = {}) => {
    const used = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    log({ msg: 'demo data', phase: name, ms: Math.round(performance.now() - t), cpuMs: Math.round((used.user + used.system) / 1000), ...extra });
  };

  // SQLite: a fresh bulk load is cheaper with a rollback journal (pages are written once, not to
  // the WAL and then again at checkpoint) and a larger page cache; both are restored afterwards.
  // Switching the journal mode only succeeds when no other connection has the file open.
  const restore = isPostgres(db) ? null : await sqliteBulkMode(db);
  let counts: DemoCounts;
  try {
    counts = await seedAll(db, opts, { passwordHash, nCustomers, nDevices, nPersons, nAlarms, nStaff, phase });
  } finally {
    if (restore) await restore();
  }
  // Bulk loads leave the FTS5 search indexes in many small segments; merge them once (no-op on PostgreSQL).
  const t = performance.now();
  await optimizeSearchIndex(db);
  phase('search index optimize', t);

  const ms = Math.round(performance.now() - started);
  log({ msg: 'demo data generated', ms, ...counts });
  return { ms, counts };
}

async function sqliteBulkMode(db: DB): Promise<() => Promise<void>> {
  const mode = (await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db)).rows[0]?.journal_mode;
  const cache = (await sql<{ cache_size: number }>`pragma cache_size`.execute(db)).rows[0]?.cache_size;
  let switched = false;
  if (mode === 'wal') switched = (await sql<{ journal_mode: string }>`pragma journal_mode = delete`.execute(db)).rows[0]?.journal_mode === 'delete';
  await sql.raw('pragma cache_size = -65536').execute(db);
  return async () => {
    if (switched) await sql`pragma journal_mode = wal`.execute(db);
    if (typeof cache === 'number') await sql.raw(`pragma cache_size = ${cache}`).execute(db);
  };
}

type Sizes = {
  passwordHash: string;
  nCustomers: number;
  nDevices: number;
  nPersons: number;
  nAlarms: number;
  nStaff: number;
  phase: (name: string, t: number, extra?: Record<string, unknown>) => void;
};

async function seedAll(db: DB, opts: DemoOptions, sizes: Sizes): Promise<DemoCounts> {
  const { seed, now, log } = opts;
  const nowMs = now.getTime();
  const { passwordHash, nCustomers, nDevices, nPersons, nAlarms, nStaff, phase } = sizes;
  const load = async (trx: DB): Promise<DemoCounts> => {
    // PostgreSQL: secondary indexes, foreign keys and counting triggers off during the load, built once after it (pg-bulk.ts).
    const finishBulkLoad = isPostgres(trx) ? await pgBulkLoad(trx, DEMO_TABLES, phase) : null;
    const persons = new BatchInserter(trx, 'persons', [
      'id',
      'tenantId',
      'firstName',
      'lastName',
      'email',
      'passwordHash',
      'isLocked',
      'failedAttempts',
      'lastLoginDate',
      'personStatus',
      'loginMethod',
      'twoFactorType',
      'twoFactorPhone',
      'phoneNumbers',
      'profile',
      'searchText',
      'etag',
      'createdAt',
      'updatedAt',
    ]);
    const personRoles = new BatchInserter(trx, 'personRoles', ['personId', 'roleId'], [persons]);
    const taken = new Set<string>(); // e-mails, per domain batch (cleared per customer)

    // ---------------- provider staff ----------------
    let t = performance.now();
    const staffRng = new Rng(seed, 'staff');
    const arcTown = TOWNS.find((x) => x[0] === 'Leeds')!;
    const arcAddress = businessAddress(new Rng(seed, 'arc-address'), arcTown);
    const staff: StaffRef[] = [];
    const staffTaken = new Set<string>(DEMO_ACCOUNTS.map((a) => a.email.toLowerCase()));
    const otherRoles: [[RoleName, ...RoleName[]], number][] = [
      [['ArcControllerRole'], 72],
      [['ArcSupervisorRole'], 9],
      [['ArcSupervisorRole', 'ArcControllerRole'], 3],
      [['ArcManagerRole'], 5],
      [['SuperAdminReadonlyRole'], 5],
      [['SuperAdminRole'], 3],
      [['PortalUserRole'], 3],
    ];
    let pidx = 0;
    for (let i = 0; i < nStaff; i++) {
      const demo = i < DEMO_ACCOUNTS.length ? DEMO_ACCOUNTS[i] : null;
      const id = staffRng.uuid();
      const roles: [RoleName, ...RoleName[]] = demo ? [...demo.roles] : staffRng.weighted(otherRoles);
      const bundle = personBundle(
        seed,
        pidx++,
        'staff',
        { town: arcTown, address: arcAddress, sector: JOB_SECTORS.indexOf('Security'), jobTitle: ROLE_LABELS[roles[0]] },
        now,
      );
      const name = demo ? { firstName: demo.firstName, lastName: demo.lastName } : bundle.name;
      const email = demo ? demo.email.toLowerCase() : uniqueEmail(staffTaken, name, 'arc.example');
      const createdMs = nowMs - staffRng.int(30, 5 * 365) * DAY - staffRng.int(0, DAY);
      const locked = !demo && staffRng.chance(0.01);
      const inactive = !demo && staffRng.chance(0.03);
      const lastLogin = demo ? null : staffRng.chance(0.9) ? Math.max(createdMs, nowMs - Math.floor(60 * DAY * staffRng.next() ** 2)) : null;
      const tf = demo
        ? (demo.twoFactor ?? null)
        : staffRng.weighted([
            [null, 88],
            [1, 8],
            [2, 4],
          ] as const);
      const tfPhone = tf === 2 ? JSON.stringify({ countryId: 'country-gb', number: bundle.workPhone, type: PHONE_TYPE.Work }) : null;
      await persons.add({
        id,
        tenantId: PROVIDER_TENANT_ID,
        firstName: name.firstName,
        lastName: name.lastName,
        email,
        passwordHash: demo ? passwordHash : null,
        isLocked: b(locked),
        failedAttempts: locked ? 5 : 0,
        lastLoginDate: lastLogin === null ? null : iso(lastLogin),
        personStatus: inactive ? 2 : 1,
        loginMethod: 1,
        twoFactorType: tf,
        twoFactorPhone: tfPhone,
        phoneNumbers: JSON.stringify(bundle.phones),
        profile: JSON.stringify(bundle.profile),
        searchText: `${name.firstName} ${name.lastName} ${email}`.toLowerCase(),
        etag: staffRng.etag(),
        createdAt: iso(createdMs),
        updatedAt: iso(Math.max(createdMs, lastLogin ?? createdMs)),
      });
      for (const r of roles) await personRoles.add({ personId: id, roleId: ROLE_IDS[r] });
      staff.push({ id, firstName: name.firstName, lastName: name.lastName, email, roles, demo: !!demo });
    }
    phase('staff', t, { staff: staff.length });

    // ---------------- customers (plan first: devices and lone workers per customer) ----------------
    t = performance.now();
    const custRng = new Rng(seed, 'customers');
    const names = new Set<string>();
    const domains = new Set<string>();
    const customers: CustomerRef[] = [];
    let orderCounter = 0;
    for (let i = 0; i < nCustomers; i++) {
      const internal = i % 97 === 13;
      let name: string;
      if (internal)
        name = `${INTERNAL_ACCOUNT_NAMES[Math.floor(i / 97) % INTERNAL_ACCOUNT_NAMES.length]}${i >= 97 * INTERNAL_ACCOUNT_NAMES.length ? ` ${Math.floor(i / 97)}` : ''}`;
      else {
        const first = custRng.chance(0.65) ? custRng.pick(COMPANY_PREFIXES) : custRng.pick(TOWNS)[0];
        name = `${first} ${custRng.pick(COMPANY_SUFFIXES)}`;
        if (names.has(name)) name = `${name} (${custRng.pick(REGION_QUALIFIERS)})`;
        for (let k = 2; names.has(name); k++) name = `${name.replace(/ \d+$/, '')} ${k}`;
      }
      names.add(name);
      const town = pickTown(custRng);
      const status = internal
        ? null
        : custRng.weighted([
            [1, 80],
            [2, 8],
            [3, 5],
            [4, 7],
          ] as const);
      const tier = internal
        ? null
        : custRng.weighted([
            [1, 40],
            [2, 30],
            [3, 20],
            [4, 10],
          ] as const);
      let slug =
        name
          .toLowerCase()
          .replace(/\(.*\)/, '')
          .replace(/\b(ltd|nhs|trust|the|and)\b/g, '')
          .replace(/[^a-z0-9]/g, '')
          .slice(0, 24) || 'customer';
      if (domains.has(slug)) slug = `${slug}${i}`;
      domains.add(slug);
      const weight = Math.exp(1.25 * custRng.normal()) * (internal ? 0.2 : status === 2 ? 0.3 : status === 3 ? 0.6 : status === 4 ? 0.05 : 1);
      const nOrders = custRng.int(1, 5);
      const orders: string[] = [];
      for (let k = 0; k < nOrders; k++) orders.push(`SO-${String(100000 + orderCounter++ * 3 + custRng.int(0, 2)).padStart(7, '0')}`);
      const teamRng = new Rng(seed, 'teams', i);
      const teams: Team[] = [];
      const nTeams = teamRng.int(1, 4);
      const teamNames = teamRng.sample(TEAM_NAMES, nTeams);
      for (const [k, teamName] of teamNames.entries()) {
        const steps = teamRng.sample(ESCALATION_INSTRUCTIONS, teamRng.int(2, 4));
        teams.push({
          name: teamName,
          plan: {
            Name: k === 0 ? 'Default plan' : teamRng.pick(ESCALATION_PLAN_NAMES),
            Instructions: steps.map((s) => {
              const who = personName(teamRng);
              return {
                Instruction: s,
                Contact: {
                  InstructionContactName: `${teamRng.pick(INSTRUCTION_CONTACT_ROLES)} - ${who.firstName} ${who.lastName}`,
                  CountryCode: '44',
                  Value: teamRng.chance(0.7) ? ukMobile(teamRng) : ukLandline(teamRng, town),
                },
              };
            }),
          },
          isDefaultPlan: k === 0,
          special: teamRng.chance(0.6) ? teamRng.sample(SPECIAL_INSTRUCTIONS, teamRng.int(1, 2)) : [],
          duressActive: teamRng.chance(0.4),
          duress: { Monitor: teamRng.pick(DURESS_WORDS), CallPolice: teamRng.pick(DURESS_WORDS) },
        });
      }
      const lead = personName(custRng);
      customers.push({
        idx: i,
        id: custRng.uuid(),
        tenantId: custRng.uuid(),
        name,
        tier,
        status,
        internal,
        town,
        address: businessAddress(custRng, town),
        sector: sectorOf(name, custRng),
        domain: `${slug}.example`,
        weight,
        plan: [],
        orders,
        services: {
          nationalResponse: b(custRng.chance(0.3)),
          globalResponse: b(custRng.chance(0.1)),
          eurowatch: b(custRng.chance(0.08)),
          translationServices: b(custRng.chance(0.15)),
        },
        teams,
        safetyLead: { name: `${lead.firstName} ${lead.lastName}`, email: `${emailLocal(lead)}@${slug}.example`, phone: ukMobile(custRng) },
        workerStart: 0,
        workerEnd: 0,
        createdMs: nowMs - custRng.int(14, 8 * 365) * DAY - custRng.int(0, DAY),
      });
    }
    // Devices in customer accounts, split over customers by weight, then over 1–3 device types each.
    const heldTotal = Math.round(nDevices * HELD_SHARE);
    const heldPer = apportion(
      heldTotal,
      customers.map((c) => c.weight),
    );
    for (const [c, n] of zip(customers, heldPer)) {
      if (n === 0) continue;
      const k = Math.min(
        n,
        custRng.weighted([
          [1, 45],
          [2, 35],
          [3, 20],
        ] as const),
      );
      const types = new Set<number>();
      while (types.size < k) types.add(custRng.weighted(TYPE_POPULARITY));
      const shares = [...types].map((_, j) => (j === 0 ? 3 + custRng.next() * 3 : custRng.next() + 0.3));
      const split = apportion(n, shares);
      c.plan = zip([...types], split).filter(([, m]) => m > 0);
    }
    // Persons: staff, 1–3 administrators per customer, the rest lone workers by weight.
    const adminsPer = zip(customers, heldPer).map(([c, held]) => (c.internal ? 1 : 1 + b(custRng.chance(0.4)) + b(held > 150)));
    const adminTotal = adminsPer.reduce((a, n) => a + n, 0);
    const workerTotal = Math.max(nCustomers, nPersons - nStaff - adminTotal);
    const workersPer = apportion(
      workerTotal,
      customers.map((c) => 0.15 + c.weight ** 0.9),
    );

    const customersIns = new BatchInserter(trx, 'customers', [
      'id',
      'tenantId',
      'name',
      'portalId',
      'phoneNumber',
      'tier',
      'status',
      'isMigratedAccount',
      'salesforceId',
      'salesforceUrn',
      'isSalesforceAccount',
      'accountManagerFullName',
      'customerSuccessManagerFullName',
      'addressLine1',
      'addressLine2',
      'city',
      'county',
      'postCode',
      'countryId',
      'isAutomaticEmailsPaused',
      'allowDeviceSubscriptionChanges',
      'enableDiscreetAlarmApp',
      'enableFallDetectionApp',
      'enableSmsActivityConfirmation',
      'enableAlarmReportIntelligence',
      'autoGenerateAlarmIntelligence',
      'nationalResponse',
      'globalResponse',
      'eurowatch',
      'translationServices',
      'checkInTimers',
      'teamBroadcast',
      'isWelfareCheckEnabled',
      'isFallDetectionEnabled',
      'isTravelSafeEnabled',
      'isTrackingEnabled',
      'isSureCamEnabled',
      'trackingInterval',
      'isSosDisabled',
      'etag',
      'deviceSubscriptionsEtag',
      'appSubscriptionsEtag',
      'createdAt',
      'updatedAt',
    ]);
    const devSubs = new BatchInserter(trx, 'deviceSubscriptions', ['customerId', 'deviceType', 'purchased'], [customersIns]);
    const appSubs = new BatchInserter(trx, 'appSubscriptions', ['customerId', 'appSubscriptionType', 'purchased'], [customersIns]);
    const auditIns = new BatchInserter(trx, 'auditLog', ['at', 'actorId', 'action', 'entity', 'entityId', 'details']);
    const admins = staff.filter((s) => s.roles.includes('SuperAdminRole'));
    const allMs = [...ACCOUNT_MANAGERS];
    // Customers with alarm intelligence and its auto-generation on: their reports get their Analysis when seeded.
    const autoIntelligenceCustomers = new Set<string>();
    const autoIntelligence = (customerId: string, on: boolean) => {
      if (on) autoIntelligenceCustomers.add(customerId);
      return b(on);
    };
    for (const [c, workers] of zip(customers, workersPer)) {
      const r = new Rng(seed, 'customer', c.idx);
      const migrated = !c.internal && r.chance(0.35);
      const sf = !c.internal && r.chance(0.92);
      const intel = r.chance(0.35);
      const tracking = r.chance(0.45);
      const updatedMs = Math.min(nowMs, c.createdMs + Math.floor((nowMs - c.createdMs) * r.next()));
      await customersIns.add({
        id: c.id,
        tenantId: c.tenantId,
        name: c.name,
        portalId: migrated ? String(10000 + c.idx * 7 + r.int(0, 6)) : null,
        phoneNumber: e164(ukLandline(r, c.town)),
        tier: c.tier,
        status: c.status,
        isMigratedAccount: b(migrated),
        salesforceId: sf ? `0014J0000${r.hex(3).toUpperCase()}${r.pick(['AAA', 'QAM', 'IAW', 'EAY'])}` : null,
        salesforceUrn: sf ? `URN${String(200000 + c.idx * 11 + r.int(0, 10)).padStart(7, '0')}` : null,
        isSalesforceAccount: b(sf),
        accountManagerFullName: c.internal ? null : r.pick(allMs),
        customerSuccessManagerFullName: c.internal ? null : r.chance(0.85) ? r.pick(SUCCESS_MANAGERS) : null,
        addressLine1: c.address.line1,
        addressLine2: c.address.line2,
        city: c.address.city,
        county: c.address.county,
        postCode: c.address.postCode,
        countryId: 'country-gb',
        isAutomaticEmailsPaused: b(r.chance(0.05)),
        allowDeviceSubscriptionChanges: b(r.chance(0.3)),
        enableDiscreetAlarmApp: b(r.chance(0.25)),
        enableFallDetectionApp: b(r.chance(0.3)),
        enableSmsActivityConfirmation: b(r.chance(0.4)),
        enableAlarmReportIntelligence: b(intel),
        autoGenerateAlarmIntelligence: autoIntelligence(c.id, intel && r.chance(0.5)),
        ...c.services,
        checkInTimers: b(r.chance(0.25)),
        teamBroadcast: b(r.chance(0.2)),
        isWelfareCheckEnabled: b(r.chance(0.5)),
        isFallDetectionEnabled: b(r.chance(0.4)),
        isTravelSafeEnabled: b(r.chance(0.3)),
        isTrackingEnabled: b(tracking),
        isSureCamEnabled: b(r.chance(0.1)),
        trackingInterval: tracking
          ? r.weighted([
              [5, 1],
              [10, 2],
              [15, 6],
              [30, 2],
              [60, 1],
            ] as const)
          : 15,
        isSosDisabled: b(r.chance(0.005)),
        etag: r.etag(),
        deviceSubscriptionsEtag: r.etag(),
        appSubscriptionsEtag: r.etag(),
        createdAt: iso(c.createdMs),
        updatedAt: iso(updatedMs),
      });
      // Device subscriptions: purchased mostly at or above what sits in the account; some below (over-allocated).
      const subTypes = new Map<number, number>();
      for (const [ty, n] of c.plan) {
        const mode = r.weighted([
          ['over', 60],
          ['exact', 25],
          ['under', 10],
          ['none', 5],
        ] as const);
        const purchased =
          mode === 'over'
            ? n + r.int(0, Math.ceil(n * 0.2))
            : mode === 'exact'
              ? n
              : mode === 'under'
                ? Math.max(0, n - r.int(1, Math.max(1, Math.ceil(n * 0.1))))
                : 0;
        subTypes.set(ty, purchased);
      }
      if (r.chance(0.1)) {
        const extra = r.weighted(TYPE_POPULARITY);
        if (!subTypes.has(extra)) subTypes.set(extra, r.int(1, 20));
      }
      for (const [ty, purchased] of [...subTypes].sort((a, b2) => a[0] - b2[0])) await devSubs.add({ customerId: c.id, deviceType: ty, purchased });
      const app: [number, number][] = [
        [1, Math.round(workers * r.float(0.3, 1.1))],
        [2, r.chance(0.5) ? Math.round(workers * r.float(0.1, 0.5)) : 0],
        [3, r.chance(0.3) ? r.int(1, 25) : 0],
      ];
      for (const [ty, purchased] of app) await appSubs.add({ customerId: c.id, appSubscriptionType: ty, purchased });
      await auditIns.add({
        at: iso(c.createdMs),
        actorId: admins.length ? r.pick(admins).id : null,
        action: 'customer.create',
        entity: 'customer',
        entityId: c.id,
        details: JSON.stringify({ name: c.name }),
      });
    }
    phase('customers', t, { customers: customers.length });

    // ---------------- customer persons: administrators and lone workers ----------------
    t = performance.now();
    const workers: WorkerRef[] = [];
    const outbox = new BatchInserter(trx, 'outbox', ['channel', 'recipient', 'subject', 'body', 'createdAt', 'sentAt', 'error']);
    for (const [c, [nAdmins, nWorkers]] of zip(customers, zip(adminsPer, workersPer))) {
      const r = new Rng(seed, 'customer-persons', c.idx);
      taken.clear();
      c.workerStart = workers.length;
      const total = nAdmins + nWorkers;
      for (let k = 0; k < total; k++) {
        const isAdmin = k < nAdmins;
        const bundle = personBundle(seed, pidx, isAdmin ? 'admin' : 'worker', c, now);
        const id = r.uuid();
        const email = uniqueEmail(taken, bundle.name, c.domain);
        const createdMs = c.createdMs + Math.floor((nowMs - c.createdMs) * (isAdmin ? r.next() * 0.05 : r.next() * 0.9));
        const locked = r.chance(0.01);
        const lastLogin = r.chance(isAdmin ? 0.8 : 0.55) ? Math.max(createdMs, nowMs - Math.floor(120 * DAY * r.next() ** 2)) : null;
        await persons.add({
          id,
          tenantId: c.tenantId,
          firstName: bundle.name.firstName,
          lastName: bundle.name.lastName,
          email,
          passwordHash: null,
          isLocked: b(locked),
          failedAttempts: locked ? 5 : r.chance(0.05) ? r.int(1, 3) : 0,
          lastLoginDate: lastLogin === null ? null : iso(lastLogin),
          personStatus: r.chance(0.04) ? 2 : 1,
          loginMethod: r.chance(0.04) ? 2 : 1,
          twoFactorType: null,
          twoFactorPhone: null,
          phoneNumbers: JSON.stringify(bundle.phones),
          profile: JSON.stringify(bundle.profile),
          searchText: `${bundle.name.firstName} ${bundle.name.lastName} ${email}`.toLowerCase(),
          etag: r.etag(),
          createdAt: iso(createdMs),
          updatedAt: iso(Math.max(createdMs, lastLogin ?? createdMs)),
        });
        await personRoles.add({ personId: id, roleId: ROLE_IDS.PortalUserRole });
        // Customer administrators also hold the customer-scoped admin role (spec document 2 §3).
        if (isAdmin) await personRoles.add({ personId: id, roleId: ROLE_IDS.AdminRole });
        if (isAdmin) {
          if (nowMs - createdMs < 400 * DAY)
            await outbox.add({
              channel: 'email',
              recipient: email,
              subject: 'Your account has been created',
              body: `Hello ${bundle.name.firstName},\n\nAn administrator account has been created for you at ${c.name}. Use "Forgot password" on the sign-in page to choose your password.`,
              createdAt: iso(createdMs),
              sentAt: iso(createdMs + 2000),
              error: null,
            });
        } else {
          workers.push({
            id,
            pidx,
            cust: c.idx,
            firstName: bundle.name.firstName,
            lastName: bundle.name.lastName,
            email,
            team: r.int(0, c.teams.length - 1),
            devices: null,
          });
        }
        pidx++;
      }
      c.workerEnd = workers.length;
    }
    phase('persons', t, { persons: persons.total, workers: workers.length });

    // ---------------- devices, configurations, messages ----------------
    t = performance.now();
    const devices = new BatchInserter(trx, 'devices', DEVICE_COLUMNS, [customersIns, persons]);
    const configs = new BatchInserter(
      trx,
      'deviceConfigurations',
      [
        'deviceId',
        'isConnected',
        'lastUpdated',
        'isTracking',
        'trackingSeconds',
        'isFallDetection',
        'fallDetectionSettings',
        'firmwareVersion',
        'sosButton',
        'call1Type',
        'call1Number',
        'call2Type',
        'call2Number',
        'primaryEndPoint',
        'secondaryEndPoint',
        'smsBackup',
        'etag',
      ],
      [devices],
    );
    const desired = new BatchInserter(trx, 'desiredConfigurations', ['id', 'deviceId', 'payload', 'requestedBy', 'requestedAt', 'appliedAt'], [devices]);
    const messages = new BatchInserter(
      trx,
      'deviceMessages',
      ['id', 'deviceId', 'deviceIdentity', 'serial', 'deviceType', 'date', 'message', 'signal', 'battery', 'properties', 'rawMessage'],
      [devices],
    );
    const devRng = new Rng(seed, 'devices');
    const offsets = {
      imei: devRng.int(0, 999_999),
      iccid: devRng.int(0, 999_999_999),
      imsi: devRng.int(0, 999_999_999),
      phone: devRng.int(0, MOBILE_SPACE - 1),
    };
    /** Per device type: where its serials start and how many devices of it exist so far. */
    const serials = new Map<number, { base: number; count: number }>();
    for (const [ty] of TYPE_POPULARITY) serials.set(ty, { base: devRng.int(100_000, ty === 10 ? 20_000_000 : 2_000_000), count: 0 });
    const assignedWorkers: number[] = [];
    /** Customers whose first allocated device got a usage history. */
    const withHistory = new Set<string>();
    const configurers = staff.filter((s) => s.roles.includes('SuperAdminRole') || s.roles.includes('ArcSupervisorRole'));
    let g = 0;

    const makeDevice = async (type: number, status: number, c: CustomerRef | null) => {
      const r = devRng;
      const ser = serials.get(type);
      if (!ser) throw new Error(`seed: device type ${type} is not in TYPE_POPULARITY`);
      const n = ser.count++;
      const id = r.uuid();
      const serial = serialFor(type, n, ser.base, r.int(0, 2));
      const imei = type === 70 ? null : imeiFor(type, n, offsets.imei);
      const hasSim = !NO_SIM.has(type);
      const providerSim = hasSim && type !== 3;
      const simType = !providerSim
        ? null
        : type === 70
          ? 6
          : r.weighted([
              [5, 35],
              [1, 20],
              [2, 20],
              [3, 15],
              [4, 10],
            ] as const);
      const phone = hasSim ? e164(ukMobileAt(scramble(g, MOBILE_SPACE, offsets.phone, 1_000_003))) : null;
      const held = c !== null;
      const addedMs = status === 1 ? nowMs - Math.floor(365 * DAY * r.next() ** 1.5) - r.int(DAY, 3 * DAY) : nowMs - r.int(20, 6 * 365) * DAY - r.int(0, DAY);
      const receivedMs = addedMs - r.int(0, 5) * DAY - r.int(0, DAY);
      const configured = held ? r.chance(0.88) : status === 1 || status === 2 ? r.chance(0.15) : r.chance(0.6);
      let lastConfigMs: number | null = null;
      if (configured) {
        const band = r.weighted([
          [1, 10],
          [7, 25],
          [30, 30],
          [400, 35],
        ] as const);
        const lo = band === 1 ? 0 : band === 7 ? 1 : band === 30 ? 7 : 30;
        lastConfigMs = Math.max(addedMs + 3_600_000, nowMs - Math.floor((lo + (band - lo) * r.next()) * DAY));
        if (lastConfigMs > nowMs) lastConfigMs = null;
      }
      const lastUpdatedMs = Math.max(addedMs, lastConfigMs ?? 0, Math.min(nowMs, nowMs - Math.floor(200 * DAY * r.next())));
      let assigned: WorkerRef | null = null;
      if (c && c.workerEnd > c.workerStart && (status === 3 ? r.chance(0.45) : status === 4 ? r.chance(0.2) : false)) {
        const w = r.int(c.workerStart, c.workerEnd - 1);
        assigned = itemAt(workers, w);
        if (!assigned.devices) {
          assigned.devices = [];
          assignedWorkers.push(w);
        }
      }
      const caps = DEVICE_CAPABILITIES[type] ?? 0;
      const battery = caps & CAPABILITY.Battery ? r.int(8, 100) : null;
      if (assigned && assigned.devices!.length < 2) assigned.devices!.push({ id, type, serial, phone, battery });
      // Fleet Health's mix (fleetMix below): an allocated device is in one profile, from a stream of its own.
      const mix = status === 3 && c && type !== 70 ? fleetMix(new Rng(seed, 'fleet-mix', g), type, caps) : null;
      const picked = FIRMWARE[type] ? r.pick(FIRMWARE[type]) : null;
      const firmware = mix?.firmware ?? picked;
      const simStatus = !providerSim
        ? null
        : held
          ? r.weighted([
              ['Active', 92],
              ['Suspended', 5],
              ['Barred', 3],
            ] as const)
          : status === 1 || status === 2
            ? r.weighted([
                ['Ready', 70],
                ['Inactive', 30],
              ] as const)
            : r.weighted([
                ['Suspended', 60],
                ['Terminated', 40],
              ] as const);
      await devices.add({
        id,
        serialNumber: serial,
        imei,
        imsi: providerSim ? imsiFor(simType!, g, offsets.imsi) : null,
        type,
        phoneNumber: phone,
        simPhoneNumber: providerSim ? phone : null,
        simSerial: providerSim ? iccidFor(simType!, g, offsets.iccid) : null,
        simTypeId: simType,
        simStatus,
        supplier: r.pick(entryOf(DEVICE_SUPPLIERS, type, 'device suppliers')),
        status,
        customerId: c ? c.id : null,
        orderNumber: c ? (r.chance(0.95) ? r.pick(c.orders) : null) : status === 2 ? `SO-${String(900000 + g).padStart(7, '0')}` : null,
        isUserAssigned: b(!!assigned),
        assignedPersonId: assigned ? assigned.id : null,
        firmwareVersion: firmware,
        lastConfigurationDate: lastConfigMs === null ? null : iso(lastConfigMs),
        dateReceived: iso(receivedMs),
        lastUpdated: iso(lastUpdatedMs),
        addedToSystem: iso(addedMs),
        etag: r.etag(),
      });
      if (lastConfigMs !== null && caps & CAPABILITY.ChangeConfiguration) {
        const fall = FALL_TYPES.has(type) && r.chance(0.45);
        const custom2 = r.weighted([
          ['custom', 45],
          ['arc', 25],
          ['off', 30],
        ] as const);
        await configs.add({
          deviceId: id,
          isConnected: b(held ? r.chance(0.7) : r.chance(0.05)),
          lastUpdated: iso(lastConfigMs),
          isTracking: b(r.chance(0.4)),
          trackingSeconds: 60 * r.weighted(TRACKING_MINUTES.map((m) => [m, m === 15 ? 8 : 1] as [number, number])),
          isFallDetection: b(fall),
          fallDetectionSettings: FALL_TYPES.has(type) ? fallPreset(type, firmware, r) : null,
          firmwareVersion: firmware,
          sosButton: b(r.chance(0.96)),
          call1Type: 1,
          call1Number: ARC_NUMBER,
          call2Type: custom2 === 'custom' ? 2 : custom2 === 'arc' ? 1 : 3,
          call2Number: custom2 === 'custom' ? e164(r.chance(0.6) ? ukMobile(r) : ukLandline(r, c ? c.town : arcTown)) : custom2 === 'arc' ? ARC_NUMBER : null,
          primaryEndPoint: `203.0.113.${r.int(10, 19)}:${r.pick([5100, 5101, 7700])}`,
          secondaryEndPoint: r.chance(0.8) ? `198.51.100.${r.int(20, 29)}:${r.pick([5100, 5101, 7700])}` : null,
          smsBackup: b(r.chance(0.6)),
          etag: r.etag(),
        });
        const asked = r.chance(0.012);
        if (mix?.configPending) {
          // a change asked for days ago that the device has not acknowledged
          const m = new Rng(seed, 'fleet-mix-config', g);
          await desired.add({
            id: m.uuid(),
            deviceId: id,
            payload: JSON.stringify({ serials: [serial], isTrackingEnabled: true, trackingIntervalMinutes: m.pick(TRACKING_MINUTES) }),
            requestedBy: configurers.length ? m.pick(configurers).id : null,
            requestedAt: iso(nowMs - m.int(2, 10) * DAY - m.int(0, DAY)),
            appliedAt: null,
          });
        } else if (asked) {
          const requested = Math.max(lastConfigMs, nowMs - r.int(1, 30) * DAY);
          const applied = r.chance(0.7) ? Math.min(nowMs, requested + r.int(60, 7200) * 1000) : null;
          await desired.add({
            id: r.uuid(),
            deviceId: id,
            payload: JSON.stringify({
              serials: [serial],
              isTrackingEnabled: true,
              trackingIntervalMinutes: r.pick(TRACKING_MINUTES),
              ...(FALL_TYPES.has(type) ? { isManDownEnabled: true, manDownSensitivity: 30, manDownUpTime: 150, manDownNonMovementDuration: 200 } : {}),
            }),
            requestedBy: configurers.length ? r.pick(configurers).id : null,
            requestedAt: iso(requested),
            appliedAt: applied === null ? null : iso(applied),
          });
        }
      }
      // The usage report's history: the first allocated device of each customer (in the system for
      // the whole time) sends a check-in on most days of the last 62 (this month and the whole
      // month before, whatever today's date), a low-battery warning on some and an SOS now and
      // then. Its own random stream, so the rest of the demo data stays as it was.
      if (type !== 70 && status === 3 && c && !withHistory.has(c.id) && addedMs <= nowMs - 62 * DAY) {
        withHistory.add(c.id);
        const u = new Rng(seed, 'usage-history', withHistory.size);
        const identity = imei ?? serial;
        for (let day = 61; day >= 0; day--) {
          const dayMs = nowMs - day * DAY - u.int(0, 6 * 3_600_000);
          if (u.chance(0.7)) await messages.add(deviceMessage(u, id, identity, serial, type, dayMs, c.town, firmware, caps, 'Check-in'));
          if (caps & CAPABILITY.Battery && u.chance(0.1))
            await messages.add(deviceMessage(u, id, identity, serial, type, dayMs - 3_600_000, c.town, firmware, caps, 'Low battery'));
          if (u.chance(0.03)) await messages.add(deviceMessage(u, id, identity, serial, type, dayMs - 7_200_000, c.town, firmware, caps, 'SOS alarm'));
        }
      }
      if (type !== 70 && r.chance(held ? 0.28 : 0.05)) {
        const nMsg = r.int(1, 5);
        const town = c ? c.town : arcTown;
        const identity = imei ?? serial;
        const span = held ? 14 * DAY : 200 * DAY;
        // an allocated device's recent messages are its Fleet Health profile's (below): these are older
        const before = mix ? DAY : 0;
        for (let k = 0; k < nMsg; k++) {
          const dateMs = nowMs - before - Math.floor(span * r.next()) - r.int(0, 3_600_000);
          await messages.add(deviceMessage(r, id, identity, serial, type, dateMs, town, firmware, caps));
        }
      }
      if (mix) {
        const m = new Rng(seed, 'fleet-mix-messages', g);
        const identity = imei ?? serial;
        const town = c!.town;
        const add = (atMs: number, kind: (typeof MESSAGE_KINDS)[number][0]) =>
          messages.add(deviceMessage(m, id, identity, serial, type, atMs, town, firmware, caps, kind));
        const minutes = (lo: number, hi: number) => nowMs - m.int(lo, hi) * 60_000;
        if (mix.profile === 'silent') await add(nowMs - m.int(2, 20) * DAY - m.int(0, DAY), 'Heartbeat');
        else {
          // used this week (a check-in 1 to 4 days ago), charged in the last two days, unless its profile says otherwise
          if (mix.profile !== 'unused') await add(minutes(24 * 60, 4 * 24 * 60), 'Check-in');
          if (mix.profile !== 'notCharged' && caps & CAPABILITY.Battery) await add(minutes(8 * 60, 2 * 24 * 60), 'Charging started');
          // its last message, within the last hours: the threshold of Silent (24 h by default) is far off
          if (mix.profile === 'switchedOff') await add(minutes(60, 12 * 60), 'Power off');
          else if (mix.profile === 'notCharged') await add(minutes(10, 6 * 60), 'Low battery');
          else await add(minutes(5, 6 * 60), m.chance(0.5) ? 'Heartbeat' : 'Location update');
        }
      }
      g++;
    };

    // Devices in customer accounts, customer by customer.
    const heldStatusTotal = HELD_STATUSES.reduce((a, [, w]) => a + w, 0);
    for (const c of customers) {
      for (const [type, n] of c.plan) {
        for (let k = 0; k < n; k++) {
          const status = devRng.next() * heldStatusTotal < HELD_STATUSES[0][1] ? 3 : devRng.weighted(HELD_STATUSES.slice(1));
          await makeDevice(type, status, c);
        }
      }
      c.plan = [];
    }
    // Stock: no customer.
    const stockTotal = nDevices - g;
    const stockStatusCounts = apportion(
      Math.max(0, stockTotal),
      STOCK_STATUSES.map(([, w]) => w),
    );
    for (const [[status], n] of zip(STOCK_STATUSES, stockStatusCounts))
      for (let k = 0; k < n; k++) await makeDevice(devRng.weighted(TYPE_POPULARITY), status, null);
    // A few allocation history lines in the audit log.
    for (let k = 0; k < Math.ceil(nDevices / 200); k++) {
      const c = devRng.pick(customers);
      const at = Math.max(c.createdMs, nowMs - devRng.int(1, 365) * DAY);
      await auditIns.add({
        at: iso(at),
        actorId: admins.length ? devRng.pick(admins).id : null,
        action: 'device.allocate',
        entity: 'customer',
        entityId: c.id,
        details: JSON.stringify({ count: devRng.int(1, 40), orderNumber: devRng.pick(c.orders) }),
      });
    }
    phase('devices', t, { devices: g });

    // ---------------- sessions history (expired / revoked refresh tokens, consumed codes) ----------------
    t = performance.now();
    const tokens = new BatchInserter(
      trx,
      'refreshTokens',
      ['id', 'personId', 'familyId', 'tokenHash', 'clientId', 'createdAt', 'expiresAt', 'usedAt', 'revokedAt'],
      [persons],
    );
    const codes = new BatchInserter(trx, 'verificationCodes', ['id', 'personId', 'codeHash', 'createdAt', 'expiresAt', 'consumedAt'], [persons]);
    const histRng = new Rng(seed, 'sessions');
    for (const s of staff) {
      if (s.demo) continue; // demo sign-ins start with a clean session history
      if (histRng.chance(0.5)) {
        const family = histRng.uuid();
        let created = nowMs - histRng.int(40, 200) * DAY;
        const n = histRng.int(1, 3);
        for (let k = 0; k < n; k++) {
          const last = k === n - 1;
          await tokens.add({
            id: histRng.uuid(),
            personId: s.id,
            familyId: family,
            tokenHash: histRng.hex(32),
            clientId: 'portal',
            createdAt: iso(created),
            expiresAt: iso(created + 14 * DAY),
            usedAt: last ? null : iso(created + 900_000),
            revokedAt: last ? iso(created + 3 * 3_600_000) : null,
          });
          created += 900_000;
        }
      }
      if (histRng.chance(0.15)) {
        const created = nowMs - histRng.int(31, 300) * DAY;
        await codes.add({
          id: histRng.uuid(),
          personId: s.id,
          codeHash: histRng.hex(32),
          createdAt: iso(created),
          expiresAt: iso(created + 600_000),
          consumedAt: iso(created + histRng.int(20, 300) * 1000),
        });
      }
    }
    phase('sessions', t);

    // Everything the reports refer to (customers, persons, devices) is stored before the first report.
    for (const ins of [persons, personRoles, customersIns, devSubs, appSubs, devices, configs, desired, messages, tokens, codes, outbox, auditIns])
      await ins.flush();
    // Daily usage counted from the message history; the newest firmware of each type from the devices.
    const dailyUsage = await rebuildDailyUsage(trx, isPostgres(trx));
    await rebuildTypeFirmware(trx);

    // ---------------- alarm reports ----------------
    t = performance.now();
    const autoAnalyses = (await autoGenerateFeaturesOn(trx)) ? autoIntelligenceCustomers : new Set<string>();
    const alarmCounts = await generateAlarmReports(trx, { seed, now, nowMs, count: nAlarms, customers, workers, assignedWorkers, staff, log, autoAnalyses });
    phase('alarm reports', t, alarmCounts);

    // Customers: the embedded CRM directory, from its own rng stream.
    const crmAccounts = await seedCrmDirectory(trx, seed);
    const heldEmails = await seedHeldEmails(trx, seed, now);
    const reportSchedules = await seedDemoSchedules(trx, now);
    log({
      msg: 'demo data insert time',
      ...Object.fromEntries([persons, personRoles, customersIns, devices, configs, messages].map((x) => [x.table, Math.round(x.ms)])),
    });
    const counts: DemoCounts = {
      persons: persons.total,
      personRoles: personRoles.total,
      customers: customersIns.total,
      deviceSubscriptions: devSubs.total,
      appSubscriptions: appSubs.total,
      devices: devices.total,
      deviceConfigurations: configs.total,
      desiredConfigurations: desired.total,
      deviceMessages: messages.total,
      deviceDailyUsage: dailyUsage,
      refreshTokens: tokens.total,
      verificationCodes: codes.total,
      outbox: outbox.total + heldEmails,
      outboxAttachments: 0,
      reportSchedules,
      reportScheduleRuns: 0,
      auditLog: auditIns.total,
      crmAccounts,
      ...alarmCounts,
    };
    if (finishBulkLoad) await finishBulkLoad();
    return counts;
  };
  // A load that fails waits for its batches still on their way before the transaction is rolled
  // back: a statement still queued would otherwise run after the rollback, outside it (insert.ts).
  return await db.transaction().execute(async (trx) => {
    try {
      return await load(trx);
    } catch (error) {
      await settleInserters(trx);
      throw error;
    }
  });
}

/**
 * An allocated device's place in Fleet Health at the time of the seed (docs/fleet-health.md): most
 * are healthy (a message in the last hours, a check-in this week, charged, the newest firmware of
 * their type), and some are in each category — silent for days, not used this week, switched off,
 * on a low battery and not charged, behind on firmware, with a configuration change not
 * acknowledged. The healthy ones stay so for many hours without any message: a demo shows the
 * same picture a while after it starts (the simulator keeps only a few devices talking).
 */
function fleetMix(r: Rng, type: number, caps: number) {
  const profile = r.weighted([
    ['silent', 8],
    ['unused', 4],
    ['switchedOff', 4],
    ['notCharged', caps & CAPABILITY.Battery ? 4 : 0],
    ['healthy', 80],
  ] as const);
  const versions = FIRMWARE[type] ?? [];
  const newest = versions.reduce<string | null>((a, v) => newestFirmware(a, v), null);
  const older = versions.filter((v) => v !== newest);
  const firmware = older.length && r.chance(0.06) ? r.pick(older) : newest;
  const configPending = !!(caps & CAPABILITY.ChangeConfiguration) && r.chance(0.03);
  return { profile, firmware, configPending };
}

/** Fall-detection settings 'sss-uuu-nnn' for the type's firmware (spec presets, some custom). */
function fallPreset(type: number, firmware: string | null, r: Rng): string {
  if (firmware && NEWER_FIRMWARE.includes(firmware))
    return r.weighted([
      ['044-026-020', 2],
      ['042-028-020', 6],
      ['040-030-020', 2],
    ] as const);
  if (r.chance(0.08)) return `${String(r.int(20, 60)).padStart(3, '0')}-${String(r.int(20, 200)).padStart(3, '0')}-${String(r.int(20, 250)).padStart(3, '0')}`;
  if (type === 140) return '025-170-200';
  if (type === 370) return '040-025-200';
  if (type === 620 || type === 740) return '040-060-150';
  return '030-150-200';
}

const MESSAGE_KINDS: [string, string, number][] = [
  ['Heartbeat', 'GTHBD', 30],
  ['Location update', 'GTFRI', 30],
  ['Check-in', 'GTCHK', 8],
  ['Low battery', 'GTBPL', 6],
  ['Power on', 'GTPNA', 5],
  ['Power off', 'GTPFA', 4],
  ['Charging started', 'GTCHR', 5],
  ['SOS alarm', 'GTSOS', 4],
  ['Fall detected', 'GTFLD', 2],
  ['Configuration acknowledged', 'GTCFG', 6],
];

function deviceMessage(
  r: Rng,
  deviceId: string,
  identity: string,
  serial: string,
  type: number,
  dateMs: number,
  town: CustomerRef['town'],
  firmware: string | null,
  caps: number,
  kind?: (typeof MESSAGE_KINDS)[number][0],
) {
  const forced = kind === undefined ? undefined : MESSAGE_KINDS.find(([m]) => m === kind);
  const [message, code] = forced ? [forced[0], forced[1]] : r.weighted(MESSAGE_KINDS.map(([m, c2, w]) => [[m, c2], w] as [[string, string], number]));
  const battery = caps & CAPABILITY.Battery ? (message === 'Low battery' ? r.int(3, 15) : r.int(16, 100)) : null;
  const signal = caps & CAPABILITY.Signal ? r.int(5, 100) : null;
  const { lat, lng } = nearTown(r, town);
  const withFix = caps & CAPABILITY.SendsLocation && message !== 'Heartbeat' && message !== 'Power off';
  const date = new Date(dateMs);
  const stamp = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const seq = r.hex(2).toUpperCase();
  const props: Record<string, string | number | boolean | null> = {
    MessageType: code,
    FirmwareVersion: firmware,
    BatteryLevel: battery,
    SignalStrength: signal,
    Charging: message === 'Charging started',
  };
  if (withFix)
    Object.assign(props, {
      Latitude: lat,
      Longitude: lng,
      Accuracy: r.int(3, 60),
      Satellites: r.int(4, 14),
      Speed: r.chance(0.7) ? 0 : r.int(1, 60),
      Heading: r.int(0, 359),
    });
  const raw = `+RESP:${code},${firmware ?? '0'},${identity},${serial},${battery ?? ''},${signal ?? ''},${withFix ? `${lng},${lat}` : ','},${stamp},${seq}$`;
  return {
    id: r.uuid(),
    deviceId,
    deviceIdentity: identity,
    serial,
    deviceType: type,
    date: date.toISOString(),
    message,
    signal,
    battery,
    properties: JSON.stringify(props),
    rawMessage: raw,
  };
}

/** True when the database already holds demo (or any) persons. */
export async function hasData(db: DB) {
  return (await db.selectFrom('persons').select('id').limit(1).execute()).length > 0;
}
