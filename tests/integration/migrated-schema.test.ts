// The schema that migrating an empty database builds, on SQLite (PostgreSQL with TEST_DB=pg),
// compared with a committed snapshot per dialect: tests/fixtures/schema-sqlite.txt and
// schema-pg.txt (tables and their columns with type, nullability and default, constraints,
// indexes, triggers, functions). A change to what the migrations build fails here; a new
// migration changes the schema on purpose, and its snapshot is written again with
//   UPDATE_SCHEMA_SNAPSHOT=1 nice -n 10 npx vitest run --project integration tests/integration/migrated-schema.test.ts
// (and the same with TEST_DB=pg), the difference read and committed with the migration.
// Also: every table and column of the live code's types (src/server/db/schema.ts) exists; the
// migrations run in order (a database migrated part of the way takes the rest; one that lacks an
// earlier migration than its last stops); rebuilding the search tables leaves the schema as it was.
import { afterAll, describe, expect, test } from 'vitest';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import ts from 'typescript';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPostgres, openPostgres, openSqlite, type DB } from '../../src/server/db/index.js';
import { migrateToLatest, migrations } from '../../src/server/db/migrations.js';
import { rebuildSearchIndex } from '../../src/server/modules/search/maintenance.js';
import { dropPgDatabase, PG_ADMIN_URL, pgSelected } from '../helpers/db.js';

const dialect = pgSelected() ? 'pg' : 'sqlite';
const SNAPSHOT = join(process.cwd(), `tests/fixtures/schema-${dialect}.txt`);

const opened: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of opened) await close();
});

/** An empty database of the dialect under test (PostgreSQL: a new database, not a migrated template). */
async function emptyDb(): Promise<DB> {
  if (dialect === 'sqlite') {
    const db = openSqlite(':memory:');
    opened.push(() => db.destroy());
    return db;
  }
  const name = `schema_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  const db = openPostgres(url.toString(), 2);
  opened.push(async () => {
    await db.destroy();
    await dropPgDatabase(name);
  });
  return db;
}

type Row = Record<string, unknown>;
const rows = async (db: DB, text: string) => (await sql.raw<Row>(text).execute(db)).rows;

/** The schema as text, one object a block, in a stable order. */
async function schemaText(db: DB): Promise<string> {
  const out: string[] = [];
  if (!isPostgres(db)) {
    const objects = await rows(db, `select type, name, tbl_name, sql from sqlite_master where name not like 'sqlite_%' order by type, name`);
    for (const o of objects) {
      out.push(`${o.type} ${o.name} on ${o.tbl_name}`);
      if (o.type === 'table') {
        for (const c of await rows(db, `select name, type, "notnull", dflt_value, pk from pragma_table_xinfo('${String(o.name)}') order by cid`))
          out.push(
            `  column ${c.name} ${c.type || '(none)'}${c.notnull ? ' not null' : ''}${c.dflt_value === null ? '' : ` default ${c.dflt_value}`}${c.pk ? ` pk ${c.pk}` : ''}`,
          );
      }
      out.push(`  ${String(o.sql ?? '(no sql)').replace(/\n/g, '\n  ')}`);
    }
    return `${out.join('\n')}\n`;
  }
  for (const e of await rows(db, `select extname from pg_extension order by extname`)) out.push(`extension ${e.extname}`);
  for (const t of await rows(db, `select table_name, table_type from information_schema.tables where table_schema = 'public' order by table_name`)) {
    out.push(`${t.table_type === 'VIEW' ? 'view' : 'table'} ${t.table_name}`);
    const cols = await rows(
      db,
      `select column_name, data_type, is_nullable, column_default from information_schema.columns
       where table_schema = 'public' and table_name = '${String(t.table_name)}' order by ordinal_position`,
    );
    for (const c of cols)
      out.push(
        `  column ${c.column_name} ${c.data_type}${c.is_nullable === 'NO' ? ' not null' : ''}${c.column_default === null ? '' : ` default ${c.column_default}`}`,
      );
  }
  const constraints = await rows(
    db,
    `select c.conrelid::regclass::text as tbl, c.conname, pg_get_constraintdef(c.oid) as def from pg_constraint c
     join pg_namespace n on n.oid = c.connamespace where n.nspname = 'public' and c.conrelid <> 0 order by 1, 2`,
  );
  for (const c of constraints) out.push(`constraint ${c.conname} on ${c.tbl}\n  ${c.def}`);
  for (const i of await rows(db, `select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by tablename, indexname`))
    out.push(`index ${i.indexname} on ${i.tablename}\n  ${i.indexdef}`);
  const triggers = await rows(
    db,
    `select c.relname as tbl, t.tgname, pg_get_triggerdef(t.oid) as def from pg_trigger t join pg_class c on c.oid = t.tgrelid
     join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and not t.tgisinternal order by 1, 2`,
  );
  for (const t of triggers) out.push(`trigger ${t.tgname} on ${t.tbl}\n  ${t.def}`);
  // The functions the migrations wrote (not those of the extensions).
  const functions = await rows(
    db,
    `select p.proname, pg_get_function_identity_arguments(p.oid) as args, pg_get_functiondef(p.oid) as def from pg_proc p
     join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'public' and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e') order by 1, 2`,
  );
  for (const f of functions) out.push(`function ${f.proname}(${f.args})\n  ${String(f.def).trimEnd().replace(/\n/g, '\n  ')}`);
  return `${out.join('\n')}\n`;
}

/** Every table of the live code's Database type (src/server/db/schema.ts) with its columns. */
function expectedTables(): Map<string, string[]> {
  const file = join(process.cwd(), 'src/server/db/schema.ts');
  // Property names only: no library and no imports to resolve (a full type check of the file takes ~25 s).
  const program = ts.createProgram([file], { noEmit: true, noLib: true, noResolve: true, types: [] });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const database = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Database')!;
  const tables = new Map<string, string[]>();
  for (const table of checker.getTypeAtLocation(database).getProperties()) {
    const type = checker.getTypeOfSymbolAtLocation(table, database);
    tables.set(
      table.name,
      type.getProperties().map((p) => p.name),
    );
  }
  return tables;
}

async function columnsOf(db: DB): Promise<Map<string, Set<string>>> {
  const list = isPostgres(db)
    ? await rows(db, `select table_name as t, column_name as c from information_schema.columns where table_schema = 'public'`)
    : await rows(db, `select m.name as t, p.name as c from sqlite_master m join pragma_table_info(m.name) p where m.type = 'table'`);
  const out = new Map<string, Set<string>>();
  for (const r of list) {
    const t = String(r.t);
    if (!out.has(t)) out.set(t, new Set());
    out.get(t)!.add(String(r.c));
  }
  return out;
}

describe(`the migrated schema (${dialect})`, () => {
  test('migrating an empty database builds the schema of the snapshot', async () => {
    const db = await emptyDb();
    await migrateToLatest(db);
    const text = await schemaText(db);
    if (process.env.UPDATE_SCHEMA_SNAPSHOT === '1') writeFileSync(SNAPSHOT, text);
    expect(existsSync(SNAPSHOT), `no snapshot at ${SNAPSHOT}: write it with UPDATE_SCHEMA_SNAPSHOT=1 (see the head of this file)`).toBe(true);
    // Compared line by line so a failure shows what changed.
    expect(
      text.split('\n'),
      'the migrated schema differs from the snapshot: a new migration updates it (UPDATE_SCHEMA_SNAPSHOT=1, see the head of this file)',
    ).toEqual(readFileSync(SNAPSHOT, 'utf8').split('\n'));

    // every table and column the live code's types name exists
    const have = await columnsOf(db);
    const missing: string[] = [];
    for (const [table, cols] of expectedTables()) {
      if (!have.has(table)) missing.push(table);
      else for (const c of cols) if (!have.get(table)!.has(c)) missing.push(`${table}.${c}`);
    }
    expect(missing, 'tables and columns of src/server/db/schema.ts that the migrations do not create').toEqual([]);
    expect(expectedTables().get('devices')).toContain('serialNumber'); // the types were read
  });

  test('a database migrated part of the way takes the rest and ends with the same schema', async () => {
    const db = await emptyDb();
    const provider = { getMigrations: async () => migrations };
    const { error } = await new Migrator({ db, provider, allowUnorderedMigrations: false }).migrateTo('018_sso_domain_customer');
    expect(error).toBeUndefined();
    const done = await db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute();
    expect(done).toHaveLength(Object.keys(migrations).indexOf('018_sso_domain_customer') + 1);
    await migrateToLatest(db);
    expect((await schemaText(db)).split('\n')).toEqual(readFileSync(SNAPSHOT, 'utf8').split('\n'));
  });

  test('a database that has a later migration but lacks an earlier one stops at start-up', async () => {
    const db = await emptyDb();
    await migrateToLatest(db);
    await sql`delete from kysely_migration where name = '017_alarm_analysis'`.execute(db);
    await expect(migrateToLatest(db)).rejects.toThrow(/corrupted migrations: expected previously executed migration 018_sso_domain_customer/);
  });

  test.runIf(dialect === 'sqlite')('rebuilding the search tables leaves the schema as it was', async () => {
    const db = await emptyDb();
    await migrateToLatest(db);
    const before = await schemaText(db);
    await rebuildSearchIndex(db);
    expect((await schemaText(db)).split('\n')).toEqual(before.split('\n'));
  });
});
