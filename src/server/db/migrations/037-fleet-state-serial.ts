// 037_fleet_state_serial: deviceFleetState holds each device's serial number, kept by the devices
// trigger of migration 032 (now also on a change of the serial number), and on PostgreSQL every
// category's index carries it (`include ("deviceId", "serialNumber")`). A Fleet Health drill-down
// with no other filter then reads its page's serial numbers, in order, from the fleet state alone
// (decision "A Fleet Health drill-down reads its serial numbers from the fleet state",
// docs/decisions/devices-and-stock.md): before, each device of the category was looked up in
// devices for its serial number to be sorted (the unused devices, 8,983 of 1,000,000: 54 ms a page
// on PostgreSQL).
//
// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts;
// the trigger's statements are migration 032's, with the serial number added.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);

const STATE = '"deviceFleetState"';
/** Asset status Allocated. */
const ALLOCATED = 3;

const charged = (u: string) => `${u}."chargings" > 0`;
const used = (u: string) => `(${u}."checkIns" > 0 or ${u}."powerOns" > 0)`;
const lastChargedOf = (id: string) => `coalesce((select max(u."day") from "deviceDailyUsage" u where u."deviceId" = ${id} and ${charged('u')}), '')`;
const lastUsedOf = (id: string) => `coalesce((select max(u."day") from "deviceDailyUsage" u where u."deviceId" = ${id} and ${used('u')}), '')`;
const pendingOf = (id: string) =>
  `(select min(dc."requestedAt") from "desiredConfigurations" dc where dc."deviceId" = ${id} and dc."appliedAt" is null and dc."kind" = 'configuration')`;
const behindOf = (type: string, firmware: string) =>
  `case when ${firmware} is not null and exists (select 1 from "deviceTypeFirmware" tf where tf."type" = ${type} and tf."newestVersion" <> ${firmware}) then 1 else 0 end`;

const allocated = (d: string) => `(${d}."status" = ${ALLOCATED} and ${d}."customerId" is not null)`;

/** The devices trigger's statements (migration 032's), with or without the serial number. */
function devicesStatements(withSerial: boolean) {
  const serial = (text: string) => (withSerial ? text : '');
  const columns = ['deviceId', 'customerId', 'type', 'firmwareVersion', ...(withSerial ? ['serialNumber'] : [])];
  columns.push('lastMessageAt', 'lastMessage', 'lastBattery', 'lastChargedDay', 'lastUsedDay', 'configPendingSince', 'firmwareBehind');
  const upsert = `insert into ${STATE} (${columns.map((c) => `"${c}"`).join(', ')})
  select new."id", new."customerId", new."type", new."firmwareVersion",${serial(' new."serialNumber",')}
    coalesce((select lm."date" from "deviceLastMessages" lm where lm."deviceId" = new."id"), ''),
    (select lm."message" from "deviceLastMessages" lm where lm."deviceId" = new."id"),
    (select lm."battery" from "deviceLastMessages" lm where lm."deviceId" = new."id"),
    ${lastChargedOf('new."id"')}, ${lastUsedOf('new."id"')}, ${pendingOf('new."id"')}, ${behindOf('new."type"', 'new."firmwareVersion"')}
  where ${allocated('new')}
  on conflict ("deviceId") do update set "customerId" = excluded."customerId", "type" = excluded."type",
    "firmwareVersion" = excluded."firmwareVersion",${serial(' "serialNumber" = excluded."serialNumber",')} "firmwareBehind" = excluded."firmwareBehind"`;
  const leave = `delete from ${STATE} where "deviceId" = old."id" and not (old."id" = new."id" and ${allocated('new')})`;
  const watchedColumns = ['id', 'status', 'customerId', 'type', 'firmwareVersion', ...(withSerial ? ['serialNumber'] : [])];
  return {
    insert: [upsert],
    update: [leave, upsert],
    delete: [`delete from ${STATE} where "deviceId" = old."id"`],
    of: watchedColumns.map((c) => `"${c}"`).join(', '),
    when: (differ: (a: string, b: string) => string) => watchedColumns.map((c) => differ(`old."${c}"`, `new."${c}"`)).join(' or '),
  };
}

const TRIGGER = 'deviceFleetState_devices';
const FUNCTION = 'devicefleetstate_devices_fn';

/** The devices trigger of the fleet state (migration 032's), with or without the serial number. */
async function devicesTrigger(db: Kysely<any>, withSerial: boolean) {
  const pg = isPg(db);
  const t = devicesStatements(withSerial);
  const body = (xs: string[]) => xs.map((x) => `${x};`).join('\n');
  if (!pg) {
    for (const s of ['ai', 'ad', 'au']) await run(db, `drop trigger if exists "${TRIGGER}_${s}"`);
    await run(db, `create trigger "${TRIGGER}_ai" after insert on "devices" begin\n${body(t.insert)}\nend`);
    await run(db, `create trigger "${TRIGGER}_ad" after delete on "devices" begin\n${body(t.delete)}\nend`);
    await run(
      db,
      `create trigger "${TRIGGER}_au" after update of ${t.of} on "devices" when ${t.when((a, b) => `${a} is not ${b}`)} begin\n${body(t.update)}\nend`,
    );
    return;
  }
  await run(
    db,
    `create or replace function ${FUNCTION}() returns trigger language plpgsql as $fn$
    begin
      if tg_op = 'INSERT' then
        ${body(t.insert)}
      elsif tg_op = 'UPDATE' then
        ${body(t.update)}
      else
        ${body(t.delete)}
      end if;
      return null;
    end
    $fn$`,
  );
  await run(db, `drop trigger if exists "${TRIGGER}_au" on "devices"`);
  await run(
    db,
    `create trigger "${TRIGGER}_au" after update of ${t.of} on "devices" for each row when (${t.when((a, b) => `${a} is distinct from ${b}`)}) execute function ${FUNCTION}()`,
  );
}

/** PostgreSQL: migration 032's category indexes, each carrying the device's id (and now its serial number). */
const CATEGORY_INDEXES: [string, string, string | null][] = [
  ['deviceFleetState_lastMessageAt_idx', '"lastMessageAt", "customerId"', null],
  ['deviceFleetState_lastBattery_idx', '"lastBattery", "lastChargedDay", "customerId"', '"lastBattery" is not null'],
  ['deviceFleetState_lastUsedDay_idx', '"lastUsedDay", "customerId"', null],
  ['deviceFleetState_lastMessage_idx', '"lastMessage", "customerId"', '"lastMessage" is not null'],
  ['deviceFleetState_configPending_idx', '"configPendingSince", "customerId"', '"configPendingSince" is not null'],
  ['deviceFleetState_firmwareBehind_idx', '"customerId"', '"firmwareBehind" = 1'],
];

async function categoryIndexes(db: Kysely<any>, include: string) {
  for (const [name, cols, where] of CATEGORY_INDEXES) {
    await run(db, `drop index if exists "${name}"`);
    await run(db, `create index "${name}" on ${STATE} (${cols}) include (${include})${where ? ` where ${where}` : ''}`);
  }
}

export const m037: Migration = {
  async up(db: Kysely<any>) {
    await run(db, `alter table ${STATE} add column "serialNumber" text not null default ''`);
    await run(db, `update ${STATE} set "serialNumber" = (select d."serialNumber" from "devices" d where d."id" = ${STATE}."deviceId")`);
    await devicesTrigger(db, true);
    if (isPg(db)) await categoryIndexes(db, '"deviceId", "serialNumber"');
    await run(db, `analyze ${STATE}`);
  },
  async down(db: Kysely<any>) {
    if (isPg(db)) await categoryIndexes(db, '"deviceId"');
    await devicesTrigger(db, false);
    await run(db, `alter table ${STATE} drop column "serialNumber"`);
  },
};
