// 026_phone_key_plpgsql: PostgreSQL's search_phone_key (migration 002) as PL/pgSQL, the same
// function of its input (decision "PostgreSQL's phone key is PL/pgSQL", docs/decisions/devices-and-stock.md).
//
// A LANGUAGE sql function whose body selects from subqueries is not inlined: each call runs
// through the SQL function executor, 35–45 µs under load. The device search tests the phone key of
// every trigram candidate (19,000 for '0000000' at 1,000,000 devices) and of every row a
// serial-ordered page walks, so that call was most of such a search. In PL/pgSQL each step is a
// simple expression: ~3.6 µs a call. The indexes over search_phone_key("phoneNumber") stay valid:
// the result is the same for every input (tests/integration/search.test.ts compares it with
// phoneKey in shared code).
//
// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { PHONE_JUNK } from './002-search.js';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export const m026: Migration = {
  async up(db) {
    if (!isPg(db)) return;
    const junk = `'${PHONE_JUNK.join('')}'`;
    await sql
      .raw(
        `create or replace function search_phone_key(p text) returns text
        language plpgsql immutable parallel safe returns null on null input as $fn$
        declare
          d0 text := translate(p, ${junk}, '');
          d text;
          k text;
        begin
          d := case when d0 like '00%' then substr(d0, 3) else d0 end;
          k := case when d like '44%' and (d0 like '00%' or ltrim(p) like '+%' or length(d) >= 12) then substr(d, 3) else d end;
          return case when k like '0%' then substr(k, 2) else k end;
        end
        $fn$`,
      )
      .execute(db);
  },
};
