// Customers: customer list p95 at 20,000 customers with filters (goal < 30 ms),
// allocation of 1,000 devices in one request (goal < 1 s), CRM search round trip p95 on the
// embedded directory (goal < 20 ms). Through app.request() with a super-admin token over a
// temporary SQLite file (WAL, as the server runs it). Imported by tests/bench/run.ts.
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/server/app.js';
import { testConfig } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import type { DB } from '../../src/server/db/index.js';
import type { Database } from '../../src/server/db/schema.js';
import { migrateToLatest } from '../../src/server/db/migrations.js';
import { seedReferenceData } from '../../src/server/seed/reference.js';
import { issueAccessToken } from '../../src/server/auth/tokens.js';
import { PROVIDER_TENANT_ID } from '../../src/shared/tenants.js';
import { customerRow, deviceRow } from '../helpers/customer-rows.js';
import { percentileOf, pick, rng } from './stats.js';

const WORDS = [
  'Harbour',
  'Northern',
  'Acme',
  'Zenith',
  'Care',
  'Water',
  'Rail',
  'Logistics',
  'Security',
  'Health',
  'Trust',
  'Facilities',
  'Parking',
  'Energy',
  'Housing',
];
const SUFFIX = ['Ltd', 'Services', 'Group', 'NHS Trust', 'Council', 'Partners', 'Management'];

async function insertMany<T>(db: DB, table: keyof Database, rows: T[], per = 200) {
  for (let i = 0; i < rows.length; i += per)
    await db
      .insertInto(table)
      .values(rows.slice(i, i + per) as never)
      .execute();
}

export async function benchCustomers(opts: { customers?: number; requests?: number } = {}): Promise<Record<string, number>> {
  const nCustomers = opts.customers ?? 20_000;
  const n = opts.requests ?? 300;
  const file = join(tmpdir(), `bench-customers-${randomBytes(4).toString('hex')}.sqlite`);
  const raw = new SQLite(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) }) as DB;
  try {
    await migrateToLatest(db);
    await seedReferenceData(db);
    const r = rng(10);
    const name = (i: number) => `${pick(r, WORDS)} ${pick(r, WORDS)} ${pick(r, SUFFIX)} ${i}`;
    const customers = Array.from({ length: nCustomers }, (_, i) => {
      const migrated = r() < 0.35;
      const internal = i % 97 === 13;
      return customerRow({
        name: name(i),
        portalId: migrated ? String(10000 + i * 7) : null,
        isMigratedAccount: migrated ? 1 : 0,
        tier: internal ? null : 1 + Math.floor(r() * 4),
        status: internal ? null : 1 + Math.floor(r() * 4),
        salesforceUrn: internal ? null : `URN${String(200000 + i).padStart(7, '0')}`,
      });
    });
    await insertMany(db, 'customers', customers);
    const crm = Array.from({ length: nCustomers }, (_, i) => {
      const nm = name(i);
      return {
        id: `001BENCH${i}`,
        name: nm,
        urn: `URN${String(300000 + i).padStart(7, '0')}`,
        streetLine1: `${i} High Street`,
        streetLine2: null,
        county: 'Yorkshire',
        city: 'Leeds',
        postalCode: 'LS1 1AA',
        country: 'United Kingdom',
        phone: '+441134960000',
        accountManagerFullName: 'Alex Owner',
        customerSuccessManagerFullName: null,
        customerSuccessTier: 2,
        searchName: nm.toLowerCase(),
      };
    });
    await insertMany(db, 'crmAccounts', crm);
    const target = customers[0]!;
    const devices = Array.from({ length: 3000 }, (_, i) =>
      deviceRow({ serialNumber: `BENCH-${String(i).padStart(6, '0')}`, type: i % 2 ? 620 : 750, status: 1 }),
    );
    await insertMany(db, 'devices', devices);
    await db
      .insertInto('deviceSubscriptions')
      .values([
        { customerId: target.id!, deviceType: 620, purchased: 100_000 },
        { customerId: target.id!, deviceType: 750, purchased: 100_000 },
      ])
      .execute();

    const config = testConfig();
    const log = () => {};
    const { app } = createApp({ db, config, outbox: createOutbox({ log, now: () => config.now() }), log });
    const token = await issueAccessToken(config, { id: randomUUID(), tenantId: PROVIDER_TENANT_ID, email: 'bench@bench.test', roles: ['SuperAdminRole'] });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    // Wall time, and the CPU time this (single-threaded) process spent on the request: on a loaded
    // machine the wall time includes waiting for a core, the CPU time is what the request costs.
    const cpu: number[] = [];
    const post = async (path: string, body: unknown) => {
      const t = performance.now();
      const c = process.cpuUsage();
      const res = await app.request(path, { method: 'POST', headers, body: JSON.stringify(body) });
      await res.arrayBuffer();
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      return performance.now() - t;
    };

    // Customer list: a mix of what the page sends (filters, sorts, pages).
    const ORDER = ['Reference', 'Name', 'Tier', 'Status', 'Migrated'];
    const filters = () => {
      const f: Record<string, unknown> = { page: 1 + Math.floor(r() * 5), pageSize: pick(r, [10, 25, 50, 100]), orderBy: pick(r, ORDER), desc: r() < 0.5 };
      if (r() < 0.5)
        f.searchValue = pick(r, WORDS)
          .toLowerCase()
          .slice(0, 3 + Math.floor(r() * 4));
      if (r() < 0.4) f.tierIds = [1 + Math.floor(r() * 4)];
      if (r() < 0.4) f.statusIds = [1 + Math.floor(r() * 4), 1 + Math.floor(r() * 4)];
      if (r() < 0.3) f.migratedOnly = true;
      return f;
    };
    for (let i = 0; i < 20; i++) await post('/api/v1/customer/get-list', filters()); // warm-up
    const list: number[] = [];
    cpu.length = 0;
    for (let i = 0; i < n; i++) list.push(await post('/api/v1/customer/get-list', filters()));
    const listCpu = [...cpu];

    const crmTimes: number[] = [];
    for (let i = 0; i < 20; i++) await post('/api/v1/salesforce/account/query', { query: pick(r, WORDS) });
    cpu.length = 0;
    for (let i = 0; i < n; i++) {
      const q =
        r() < 0.2
          ? `urn0${300000 + Math.floor(r() * nCustomers)}`
          : pick(r, WORDS)
              .toLowerCase()
              .slice(0, 2 + Math.floor(r() * 6));
      crmTimes.push(await post('/api/v1/salesforce/account/query', { query: q }));
    }

    const crmCpu = [...cpu];
    // Allocation: 1,000 devices in one request, three times (fresh devices each time).
    const alloc: number[] = [];
    for (let k = 0; k < 3; k++) {
      const batch = devices.slice(k * 1000, (k + 1) * 1000).map((d) => ({ id: d.id, etag: d.etag, typeValue: d.type }));
      alloc.push(await post('/api/v1/device/allocate-many', { customerId: target.id, orderNumber: `PO-${k}`, devices: batch }));
    }

    const out = {
      customers: nCustomers,
      'list p50 ms': +percentileOf(list, 50).toFixed(1),
      'list p95 ms (goal < 30)': +percentileOf(list, 95).toFixed(1),
      'list p99 ms': +percentileOf(list, 99).toFixed(1),
      'list CPU p95 ms': +percentileOf(listCpu, 95).toFixed(1),
      'crm search p50 ms': +percentileOf(crmTimes, 50).toFixed(1),
      'crm search p95 ms (goal < 20)': +percentileOf(crmTimes, 95).toFixed(1),
      'crm search CPU p95 ms': +percentileOf(crmCpu, 95).toFixed(1),
      'load average (1 min) during the run': +loadavg()[0]!.toFixed(1),
      'allocate 1,000 devices ms (goal < 1000), worst of 3': +Math.max(...alloc).toFixed(0),
    };
    for (const [k, v] of Object.entries(out)) console.log(`  ${k}: ${v}`);
    return out;
  } finally {
    await db.destroy();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  }
}
