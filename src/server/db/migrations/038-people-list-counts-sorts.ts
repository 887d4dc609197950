// 038_people_list_counts_sorts: the customer and person lists' counts kept by triggers and their
// default and filtered sorts read from indexes (decisions "The customer list counts from kept
// counts and pages from its sort indexes", docs/decisions/customers.md, and "The person list's
// total is kept and Last Login is indexed", docs/decisions/persons-and-permissions.md).
//
// - customerCounts: customers per (tier, status, isMigratedAccount), a missing tier or status kept
//   as 0 (the codes start at 1). At most 5 × 5 × 2 rows. Kept by triggers in the writing
//   transaction (SQLite row triggers; PostgreSQL statement triggers over the transition tables,
//   applied in key order, zero changes skipped), as deviceCounts of migration 014. The list's
//   totalCount for tier, status and migrated filters and its generalTotalCount are sums over it.
// - personTotals: one row, how many persons there are (the person list's TotalCount for the whole
//   directory without a search), kept the same way.
// - customers_reference_asc_idx / _desc_idx: the Reference sort's keys (missing last, length,
//   portalId, then name and id in the sort's direction).
// - customers_tier_sort_idx (tier, name, id), customers_status_sort_idx (status, name, id) and
//   customers_status_migrated_idx (status, isMigratedAccount, name, id): a tier or status filter
//   sorted by that column (its missing-last key is constant then) is one ordered index range; they
//   replace migration 009's (tier, name) and (status, name).
// - persons_last_login_sort_idx: the Last Login sort's keys (never signed in as '', first and last
//   name case-insensitive, id); both directions read it.
//
// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);

const CUSTOMER_KEY = `tier, status, "isMigratedAccount"`;
const customerGroup = (row: string) => `coalesce(${row}.tier, 0), coalesce(${row}.status, 0), ${row}."isMigratedAccount"`;
const customerMatches = (row: string) =>
  `tier = coalesce(${row}.tier, 0) and status = coalesce(${row}.status, 0) and "isMigratedAccount" = ${row}."isMigratedAccount"`;

const TRIGGERS: [string, string][] = [
  ['customers_counts_insert', 'customers'],
  ['customers_counts_delete', 'customers'],
  ['customers_counts_update', 'customers'],
  ['persons_totals_insert', 'persons'],
  ['persons_totals_delete', 'persons'],
];

async function sqliteTriggers(db: Kysely<any>) {
  const add = `insert or ignore into "customerCounts" (${CUSTOMER_KEY}, n) values (${customerGroup('new')}, 0);
    update "customerCounts" set n = n + 1 where ${customerMatches('new')};`;
  const remove = `update "customerCounts" set n = n - 1 where ${customerMatches('old')};`;
  await run(db, `create trigger customers_counts_insert after insert on customers begin ${add} end`);
  await run(db, `create trigger customers_counts_delete after delete on customers begin ${remove} end`);
  await run(
    db,
    `create trigger customers_counts_update after update of tier, status, "isMigratedAccount" on customers
     when old.tier is not new.tier or old.status is not new.status or old."isMigratedAccount" is not new."isMigratedAccount"
     begin ${remove} ${add} end`,
  );
  await run(db, `create trigger persons_totals_insert after insert on persons begin update "personTotals" set n = n + 1 where "key" = 1; end`);
  await run(db, `create trigger persons_totals_delete after delete on persons begin update "personTotals" set n = n - 1 where "key" = 1; end`);
}

/** PostgreSQL: statement triggers over the transition tables (a bulk write adds one row per group it touches). */
async function postgresTriggers(db: Kysely<any>) {
  const apply = (deltas: string) => `
    insert into "customerCounts" (${CUSTOMER_KEY}, n)
    select ${CUSTOMER_KEY}, sum(d) from (${deltas}) x group by ${CUSTOMER_KEY} having sum(d) <> 0 order by ${CUSTOMER_KEY}
    on conflict (${CUSTOMER_KEY}) do update set n = "customerCounts".n + excluded.n;`;
  const rows = (table: string, sign: 1 | -1) =>
    `select coalesce(tier, 0) as tier, coalesce(status, 0) as status, "isMigratedAccount", ${sign} as d from ${table}`;
  await run(
    db,
    `create function customer_counts_statement() returns trigger language plpgsql as $$
     begin
       if tg_op = 'INSERT' then ${apply(rows('new_rows', 1))}
       elsif tg_op = 'DELETE' then ${apply(rows('old_rows', -1))}
       else ${apply(`${rows('new_rows', 1)} union all ${rows('old_rows', -1)}`)}
       end if;
       return null;
     end $$`,
  );
  await run(
    db,
    `create trigger customers_counts_insert after insert on customers referencing new table as new_rows for each statement execute function customer_counts_statement()`,
  );
  await run(
    db,
    `create trigger customers_counts_delete after delete on customers referencing old table as old_rows for each statement execute function customer_counts_statement()`,
  );
  await run(
    db,
    `create trigger customers_counts_update after update on customers referencing old table as old_rows new table as new_rows for each statement execute function customer_counts_statement()`,
  );
  await run(
    db,
    `create function person_totals_statement() returns trigger language plpgsql as $$
     declare d bigint;
     begin
       if tg_op = 'INSERT' then select count(*) into d from new_rows;
       else select -count(*) into d from old_rows;
       end if;
       if d <> 0 then update "personTotals" set n = n + d where "key" = 1; end if;
       return null;
     end $$`,
  );
  await run(
    db,
    `create trigger persons_totals_insert after insert on persons referencing new table as new_rows for each statement execute function person_totals_statement()`,
  );
  await run(
    db,
    `create trigger persons_totals_delete after delete on persons referencing old table as old_rows for each statement execute function person_totals_statement()`,
  );
}

const REFERENCE_MISSING = `(case when "portalId" is null then 1 else 0 end)`;
const INDEXES: [string, string, string][] = [
  ['customers_reference_asc_idx', 'customers', `${REFERENCE_MISSING}, length("portalId"), "portalId", "name", "id"`],
  ['customers_reference_desc_idx', 'customers', `${REFERENCE_MISSING}, length("portalId") desc, "portalId" desc, "name" desc, "id" desc`],
  ['customers_tier_sort_idx', 'customers', `"tier", "name", "id"`],
  ['customers_status_sort_idx', 'customers', `"status", "name", "id"`],
  ['customers_status_migrated_idx', 'customers', `"status", "isMigratedAccount", "name", "id"`],
  ['persons_last_login_sort_idx', 'persons', `coalesce("lastLoginDate", ''), lower("firstName"), lower("lastName"), "id"`],
];

export const m038: Migration = {
  async up(db) {
    const pg = isPg(db);
    const bigint = pg ? 'bigint' : 'integer';
    await run(
      db,
      `create table "customerCounts" ("tier" integer not null, "status" integer not null, "isMigratedAccount" integer not null, "n" ${bigint} not null,
       constraint "customerCounts_pk" primary key (${CUSTOMER_KEY}))`,
    );
    await run(db, `insert into "customerCounts" (${CUSTOMER_KEY}, n) select ${customerGroup('customers')}, count(*) from customers group by 1, 2, 3`);
    await run(db, `create table "personTotals" ("key" integer not null primary key, "n" ${bigint} not null)`);
    await run(db, `insert into "personTotals" ("key", n) select 1, count(*) from persons`);
    if (pg) await postgresTriggers(db);
    else await sqliteTriggers(db);
    await run(db, `drop index if exists "customers_tier_idx"`);
    await run(db, `drop index if exists "customers_status_idx"`);
    for (const [name, table, cols] of INDEXES) await run(db, `create index "${name}" on "${table}" (${cols})`);
    await run(db, `analyze customers`);
    await run(db, `analyze persons`);
  },
  async down(db) {
    const pg = isPg(db);
    for (const [name, table] of TRIGGERS) await run(db, pg ? `drop trigger if exists ${name} on ${table}` : `drop trigger if exists ${name}`);
    if (pg) {
      await run(db, `drop function if exists customer_counts_statement()`);
      await run(db, `drop function if exists person_totals_statement()`);
    }
    await run(db, `drop table if exists "customerCounts"`);
    await run(db, `drop table if exists "personTotals"`);
    for (const [name] of INDEXES) await run(db, `drop index if exists "${name}"`);
    await run(db, `create index "customers_tier_idx" on "customers" ("tier", "name")`);
    await run(db, `create index "customers_status_idx" on "customers" ("status", "name")`);
  },
};
