// 032_device_fleet_state: deviceFleetState, one row per allocated device (status Allocated, in a
// customer's account) holding the facts Fleet Health asks of it, kept exact by triggers in the
// writing transaction of every path (ingestion, bulk changes, allocation, imports, seed):
//   lastMessageAt, lastMessage, lastBattery  the device's last message (deviceLastMessages; '' when none)
//   lastChargedDay                            the newest London day with a charge (deviceDailyUsage; '' when none)
//   lastUsedDay                               the newest London day with a check-in or power-on ('' when none)
//   configPendingSince                        the oldest configuration change not acknowledged (desiredConfigurations)
//   firmwareBehind                            1 when its firmware is not the newest of its type (deviceTypeFirmware)
// Each category of Fleet Health is then a range of one index of this narrow table instead of
// correlated look-ups into four tables for every allocated device (modules/fleet/conditions.ts).
//
// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);

/** Asset status Allocated. */
const ALLOCATED = 3;
const STATE = '"deviceFleetState"';

const COLUMNS = [
  'deviceId',
  'customerId',
  'type',
  'firmwareVersion',
  'lastMessageAt',
  'lastMessage',
  'lastBattery',
  'lastChargedDay',
  'lastUsedDay',
  'configPendingSince',
  'firmwareBehind',
] as const;

const charged = (u: string) => `${u}."chargings" > 0`;
const used = (u: string) => `(${u}."checkIns" > 0 or ${u}."powerOns" > 0)`;

const lastChargedOf = (id: string) => `coalesce((select max(u."day") from "deviceDailyUsage" u where u."deviceId" = ${id} and ${charged('u')}), '')`;
const lastUsedOf = (id: string) => `coalesce((select max(u."day") from "deviceDailyUsage" u where u."deviceId" = ${id} and ${used('u')}), '')`;
const pendingOf = (id: string) =>
  `(select min(dc."requestedAt") from "desiredConfigurations" dc where dc."deviceId" = ${id} and dc."appliedAt" is null and dc."kind" = 'configuration')`;
const behindOf = (type: string, firmware: string) =>
  `case when ${firmware} is not null and exists (select 1 from "deviceTypeFirmware" tf where tf."type" = ${type} and tf."newestVersion" <> ${firmware}) then 1 else 0 end`;

/** The state row of device `d` (a devices row: `d."id"` etc.), computed from the tables. */
const stateSelect = (d: string) => `select ${d}."id", ${d}."customerId", ${d}."type", ${d}."firmwareVersion",
  coalesce((select lm."date" from "deviceLastMessages" lm where lm."deviceId" = ${d}."id"), ''),
  (select lm."message" from "deviceLastMessages" lm where lm."deviceId" = ${d}."id"),
  (select lm."battery" from "deviceLastMessages" lm where lm."deviceId" = ${d}."id"),
  ${lastChargedOf(`${d}."id"`)}, ${lastUsedOf(`${d}."id"`)}, ${pendingOf(`${d}."id"`)}, ${behindOf(`${d}."type"`, `${d}."firmwareVersion"`)}`;

const allocated = (d: string) => `(${d}."status" = ${ALLOCATED} and ${d}."customerId" is not null)`;
const insertState = `insert into ${STATE} (${COLUMNS.map((c) => `"${c}"`).join(', ')})`;

/** Statements (each ending without ';') of each trigger, r the row ('new' or 'old'). */
const devicesUpsert = `${insertState} ${stateSelect('new')} where ${allocated('new')}
  on conflict ("deviceId") do update set "customerId" = excluded."customerId", "type" = excluded."type",
    "firmwareVersion" = excluded."firmwareVersion", "firmwareBehind" = excluded."firmwareBehind"`;
const devicesLeave = `delete from ${STATE} where "deviceId" = old."id" and not (old."id" = new."id" and ${allocated('new')})`;

const lastMessageSet = (r: string) =>
  `update ${STATE} set "lastMessageAt" = ${r}."date", "lastMessage" = ${r}."message", "lastBattery" = ${r}."battery" where "deviceId" = ${r}."deviceId"`;
const lastMessageClear = `update ${STATE} set "lastMessageAt" = '', "lastMessage" = null, "lastBattery" = null where "deviceId" = old."deviceId"`;

/** A daily usage row counted: the newest days move forward (and only when they do: no write otherwise). */
const usageRaise = `update ${STATE} set
    "lastChargedDay" = case when ${charged('new')} and "lastChargedDay" < new."day" then new."day" else "lastChargedDay" end,
    "lastUsedDay" = case when ${used('new')} and "lastUsedDay" < new."day" then new."day" else "lastUsedDay" end
  where "deviceId" = new."deviceId" and ((${charged('new')} and "lastChargedDay" < new."day") or (${used('new')} and "lastUsedDay" < new."day"))`;
/** The old row no longer counts (deleted, or updated so that it does not): the newest days are found again when it was the newest. */
const usageDrop = (stays: { charged: string; used: string }) => [
  `update ${STATE} set "lastChargedDay" = ${lastChargedOf('old."deviceId"')}
    where "deviceId" = old."deviceId" and "lastChargedDay" = old."day" and ${charged('old')} and not (${stays.charged})`,
  `update ${STATE} set "lastUsedDay" = ${lastUsedOf('old."deviceId"')}
    where "deviceId" = old."deviceId" and "lastUsedDay" = old."day" and ${used('old')} and not (${stays.used})`,
];
const sameRow = `new."deviceId" = old."deviceId" and new."day" = old."day"`;
const usageDropOnUpdate = usageDrop({ charged: `${sameRow} and ${charged('new')}`, used: `${sameRow} and ${used('new')}` });
const usageDropOnDelete = usageDrop({ charged: '1 = 0', used: '1 = 0' });

const pendingSet = (r: string) => `update ${STATE} set "configPendingSince" = ${pendingOf(`${r}."deviceId"`)} where "deviceId" = ${r}."deviceId"`;

const firmwareSet = (r: string) =>
  `update ${STATE} set "firmwareBehind" = case when "firmwareVersion" is not null and "firmwareVersion" <> ${r}."newestVersion" then 1 else 0 end
  where "type" = ${r}."type" and "firmwareBehind" <> case when "firmwareVersion" is not null and "firmwareVersion" <> ${r}."newestVersion" then 1 else 0 end`;
const firmwareClear = `update ${STATE} set "firmwareBehind" = 0 where "type" = old."type" and "firmwareBehind" = 1`;

type Trigger = {
  name: string;
  table: string;
  /** SQLite: columns of the update trigger; PostgreSQL the same. */
  watched: string[];
  /**
   * The update trigger fires only when this holds (none: always); `differ(a, b)` is the dialect's
   * "a and b differ, null included".
   */
  when?: (differ: (a: string, b: string) => string) => string;
  insert: string[];
  update: string[];
  delete: string[];
};

const TRIGGERS: Trigger[] = [
  {
    name: 'deviceFleetState_devices',
    table: 'devices',
    watched: ['id', 'status', 'customerId', 'type', 'firmwareVersion'],
    when: (differ) => ['id', 'status', 'customerId', 'type', 'firmwareVersion'].map((c) => differ(`old."${c}"`, `new."${c}"`)).join(' or '),
    insert: [devicesUpsert],
    update: [devicesLeave, devicesUpsert],
    delete: [`delete from ${STATE} where "deviceId" = old."id"`],
  },
  {
    name: 'deviceFleetState_lastMessages',
    table: 'deviceLastMessages',
    watched: ['deviceId', 'date', 'message', 'battery'],
    insert: [lastMessageSet('new')],
    update: [`${lastMessageClear} and old."deviceId" <> new."deviceId"`, lastMessageSet('new')],
    delete: [lastMessageClear],
  },
  {
    name: 'deviceFleetState_dailyUsage',
    table: 'deviceDailyUsage',
    watched: ['deviceId', 'day', 'chargings', 'checkIns', 'powerOns'],
    // ingestion adds to a day's counts: only a row that starts or stops counting moves the state
    when: (differ) =>
      `${differ('old."deviceId"', 'new."deviceId"')} or ${differ('old."day"', 'new."day"')} or (${charged('old')}) <> (${charged('new')}) or ${used('old')} <> ${used('new')}`,
    insert: [usageRaise],
    update: [...usageDropOnUpdate, usageRaise],
    delete: usageDropOnDelete,
  },
  {
    name: 'deviceFleetState_configurations',
    table: 'desiredConfigurations',
    watched: ['deviceId', 'appliedAt', 'kind', 'requestedAt'],
    insert: [pendingSet('new')],
    update: [`${pendingSet('old')} and old."deviceId" <> new."deviceId"`, pendingSet('new')],
    delete: [pendingSet('old')],
  },
  {
    name: 'deviceFleetState_firmware',
    table: 'deviceTypeFirmware',
    watched: ['type', 'newestVersion'],
    insert: [firmwareSet('new')],
    update: [`${firmwareClear} and old."type" <> new."type"`, firmwareSet('new')],
    delete: [firmwareClear],
  },
];

/** [name, columns, partial condition]: one index for each fact a category reads, customerId after it for the grouping. */
export const FLEET_STATE_INDEXES: [string, string, string | null][] = [
  ['deviceFleetState_customer_idx', '"customerId"', null],
  ['deviceFleetState_lastMessageAt_idx', '"lastMessageAt", "customerId"', null],
  ['deviceFleetState_lastBattery_idx', '"lastBattery", "lastChargedDay", "customerId"', '"lastBattery" is not null'],
  ['deviceFleetState_lastUsedDay_idx', '"lastUsedDay", "customerId"', null],
  ['deviceFleetState_lastMessage_idx', '"lastMessage", "customerId"', '"lastMessage" is not null'],
  ['deviceFleetState_configPending_idx', '"configPendingSince", "customerId"', '"configPendingSince" is not null'],
  ['deviceFleetState_firmwareBehind_idx', '"customerId"', '"firmwareBehind" = 1'],
];

const triggerNames = (t: Trigger, pg: boolean) => (pg ? [`${t.name}_aiud`, `${t.name}_au`] : [`${t.name}_ai`, `${t.name}_ad`, `${t.name}_au`]);

async function createTriggers(db: Kysely<any>, t: Trigger) {
  const pg = isPg(db);
  const body = (xs: string[]) => xs.map((s) => `${s};`).join('\n');
  const of = t.watched.map((c) => `"${c}"`).join(', ');
  if (!pg) {
    const [ai, ad, au] = triggerNames(t, pg);
    const when = t.when ? ` when ${t.when((a, b) => `${a} is not ${b}`)}` : '';
    await run(db, `create trigger "${ai}" after insert on "${t.table}" begin\n${body(t.insert)}\nend`);
    await run(db, `create trigger "${ad}" after delete on "${t.table}" begin\n${body(t.delete)}\nend`);
    await run(db, `create trigger "${au}" after update of ${of} on "${t.table}"${when} begin\n${body(t.update)}\nend`);
    return;
  }
  const fn = `${t.name.toLowerCase()}_fn`;
  await run(
    db,
    `create or replace function ${fn}() returns trigger language plpgsql as $fn$
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
  const [aiud, au] = triggerNames(t, pg);
  const when = t.when ? ` when (${t.when((a, b) => `${a} is distinct from ${b}`)})` : '';
  await run(db, `create trigger "${aiud}" after insert or delete on "${t.table}" for each row execute function ${fn}()`);
  await run(db, `create trigger "${au}" after update of ${of} on "${t.table}" for each row${when} execute function ${fn}()`);
}

export const m032: Migration = {
  async up(db: Kysely<any>) {
    const pg = isPg(db);
    await run(
      db,
      `create table ${STATE} (
        "deviceId" text primary key references "devices" ("id") on delete cascade,
        "customerId" text not null,
        "type" integer not null,
        "firmwareVersion" text,
        "lastMessageAt" text not null default '',
        "lastMessage" text,
        "lastBattery" integer,
        "lastChargedDay" text not null default '',
        "lastUsedDay" text not null default '',
        "configPendingSince" text,
        "firmwareBehind" integer not null default 0
      )${pg ? '' : ' without rowid'}`,
    );
    await run(db, `${insertState} ${stateSelect('d')} from "devices" d where ${allocated('d')}`);
    for (const [name, cols, where] of FLEET_STATE_INDEXES)
      await run(
        db,
        `create index "${name}" on ${STATE} (${cols})${pg && name !== 'deviceFleetState_customer_idx' ? ' include ("deviceId")' : ''}${where ? ` where ${where}` : ''}`,
      );
    for (const t of TRIGGERS) await createTriggers(db, t);
    await run(db, `analyze ${STATE}`);
  },
  async down(db: Kysely<any>) {
    const pg = isPg(db);
    for (const t of TRIGGERS) {
      for (const name of triggerNames(t, pg)) await run(db, `drop trigger if exists "${name}"${pg ? ` on "${t.table}"` : ''}`);
      if (pg) await run(db, `drop function if exists ${t.name.toLowerCase()}_fn()`);
    }
    await run(db, `drop table ${STATE}`);
  },
};
