// The triggers that keep a counting table in the writing transaction (the alarm statistics,
// the alarm list's names, the monthly tops of the analyses): every insert into the watched table
// adds the new row's counts, every delete takes the old row's off, and an update of a watched
// column does both. SQLite: three triggers; PostgreSQL: one plpgsql function and two triggers.
// Migrations 013, 021 and 022 created these triggers with a frozen copy of this file
// (db/migrations/lib/counting-triggers.ts); the live code names them from here.
import { type Kysely, sql } from 'kysely';
import { isPostgres as isPg } from './dialect.js';

const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);
const quoted = (cols: readonly string[]) => cols.map((c) => `"${c}"`).join(', ');

export type CountingTriggers = {
  /** The triggers' names: SQLite `<name>_ai`, `_ad`, `_au`; PostgreSQL `<name>_<insertDelete>` and `<name>_au`. */
  name: string;
  /** The table whose rows are counted. */
  table: string;
  /** The columns whose update moves a row's counts. */
  watched: readonly string[];
  /** PostgreSQL: the function the triggers execute. */
  fn: string;
  /** PostgreSQL: the suffix of the insert-or-delete trigger's name ('aiud' unless given). */
  insertDelete?: string;
  /** The statements that count row `r` with `sign`: -1 takes its counts off, 1 adds them. */
  body: (pg: boolean, r: 'old' | 'new', sign: 1 | -1) => string[];
};

/** The triggers' names on the dialect, in the order they are created. */
export function countingTriggerNames(t: CountingTriggers, pg: boolean): string[] {
  return pg ? [`${t.name}_${t.insertDelete ?? 'aiud'}`, `${t.name}_au`] : [`${t.name}_ai`, `${t.name}_ad`, `${t.name}_au`];
}

export async function createCountingTriggers(db: Kysely<any>, t: CountingTriggers) {
  const pg = isPg(db);
  const body = (r: 'new' | 'old', sign: 1 | -1) =>
    t
      .body(pg, r, sign)
      .map((s) => `${s};`)
      .join('\n');
  const afterUpdate = `after update of ${quoted(t.watched)} on "${t.table}"`;
  if (!pg) {
    const [insert, del, update] = countingTriggerNames(t, pg);
    await run(db, `create trigger "${insert}" after insert on "${t.table}" begin\n${body('new', 1)}\nend`);
    await run(db, `create trigger "${del}" after delete on "${t.table}" begin\n${body('old', -1)}\nend`);
    await run(db, `create trigger "${update}" ${afterUpdate} begin\n${body('old', -1)}\n${body('new', 1)}\nend`);
    return;
  }
  await run(
    db,
    `create or replace function ${t.fn}() returns trigger language plpgsql as $fn$
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        ${body('old', -1)}
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        ${body('new', 1)}
      end if;
      return null;
    end
    $fn$`,
  );
  const [insertDelete, update] = countingTriggerNames(t, pg);
  await run(db, `create trigger "${insertDelete}" after insert or delete on "${t.table}" for each row execute function ${t.fn}()`);
  await run(db, `create trigger "${update}" ${afterUpdate} for each row execute function ${t.fn}()`);
}

/** Drops the triggers (not the PostgreSQL function, which creating them again replaces). */
export async function dropCountingTriggers(db: Kysely<any>, t: CountingTriggers) {
  const pg = isPg(db);
  for (const name of countingTriggerNames(t, pg)) await run(db, `drop trigger if exists "${name}"${pg ? ` on "${t.table}"` : ''}`);
}
