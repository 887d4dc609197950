// The export benchmarks' data (exports.bench.ts, export-profile.ts): devices and alarm reports
// copied from one template row each by a recursive series (fast, no per-row round trips), through
// the real migrations and reference data. A tenth of the devices (every tenth serial) is of type
// TYPE_TENTH, the rest of TYPE_ALL.
import { sql } from 'kysely';
import type { DB } from '../../../src/server/db/index.js';
import { insertAlarmReport } from '../../helpers/alarm-reports.js';
import { deviceRow } from '../../helpers/customer-rows.js';

export const TYPE_ALL = 620;
export const TYPE_TENTH = 750;

const columnsOf = async (db: DB, table: string) =>
  (await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)).rows.map((r) => r.name);
const copy = (cols: string[], over: Record<string, string>) => cols.map((c) => over[c] ?? `"${c}"`).join(', ');

/** `n` devices 'EXP00000000'…, every tenth of type TYPE_TENTH. */
export async function insertBenchDevices(db: DB, n: number) {
  await db
    .insertInto('devices')
    .values(
      deviceRow({
        serialNumber: 'TEMPLATE',
        imei: '356000000000000',
        type: TYPE_ALL,
        phoneNumber: '+447700900000',
        simSerial: '8944000000000000000',
        firmwareVersion: '1.2.3',
        lastConfigurationDate: '2026-07-01T12:00:00.000Z',
        dateReceived: '2026-01-15T12:00:00.000Z',
        lastUpdated: '2026-01-15T12:00:00.000Z',
        addedToSystem: '2026-01-15T12:00:00.000Z',
        etag: '"e"',
      }),
    )
    .execute();
  const devCols = await columnsOf(db, 'devices');
  await sql
    .raw(
      `with recursive n(i) as (select 0 union all select i + 1 from n where i < ${n - 1})
       insert into devices (${devCols.map((c) => `"${c}"`).join(', ')})
       select ${copy(devCols, {
         id: `lower(hex(randomblob(16)))`,
         serialNumber: `printf('EXP%08d', i)`,
         imei: `printf('35%013d', i)`,
         type: `case when i % 10 = 0 then ${TYPE_TENTH} else ${TYPE_ALL} end`,
       })} from n, devices where devices."serialNumber" = 'TEMPLATE'`,
    )
    .execute(db);
  await db.deleteFrom('devices').where('serialNumber', '=', 'TEMPLATE').execute();
}

/** `n` alarm reports of one customer, closed a minute apart back from 1 November 2026. */
export async function insertBenchAlarmReports(db: DB, n: number) {
  const tpl = await insertAlarmReport(db, { customerAccountFullName: 'Export Bench Ltd', alarmClosed: '2026-07-01T12:00:00.000Z' });
  const alarmCols = await columnsOf(db, 'alarmReports');
  await sql
    .raw(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${n - 1})
       insert into "alarmReports" (${alarmCols.map((c) => `"${c}"`).join(', ')})
       select ${copy(alarmCols, {
         id: `lower(hex(randomblob(16)))`,
         alarmId: `lower(hex(randomblob(16)))`,
         alarmClosed: `strftime('%Y-%m-%dT%H:%M:%fZ', '2026-11-01T12:00:00', printf('-%d minutes', i))`,
       })} from n, "alarmReports" a where a."id" = '${tpl.id}'`,
    )
    .execute(db);
}
