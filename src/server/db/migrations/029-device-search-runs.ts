// 029_device_search_runs: PostgreSQL's device search finds patterns of repeated characters through
// an index of the runs of each search key (decision "A device search for repeated characters reads
// the runs index", docs/decisions/devices-and-stock.md).
//
// A trigram index knows which trigrams a value holds, not how often: '0000000' has one trigram,
// '000', held by ~2% of serial numbers, IMEIs and phone keys, so the search rechecked ~19,000 rows
// at 1,000,000 devices (a heap read each) for a few dozen matches. search_runs(text) lists each run
// of three or more of one character as 'c:L' for every length L from 3 to the run's length
// ('a0000b' → {0:3, 0:4}); a value containing '0000000' holds '0:7', so the search adds that
// condition and reads the few values with such a run from a GIN index of these lists. SQLite needs
// nothing: its trigram table reads the same pattern from its doclists.
//
// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const INDEXES: [string, string][] = [
  ['search_devices_serial_runs', `lower("serialNumber")`],
  ['search_devices_imei_runs', `lower("imei")`],
  ['search_devices_phone_runs', `search_phone_key("phoneNumber")`],
];

export const m029: Migration = {
  async up(db) {
    if (!isPg(db)) return;
    await sql
      .raw(
        `create or replace function search_runs(s text) returns text[]
        language plpgsql immutable parallel safe returns null on null input as $fn$
        declare
          out text[] := '{}';
          n int := length(s);
          i int := 1;
          j int;
          c text;
        begin
          while i <= n loop
            c := substr(s, i, 1);
            j := i;
            while j < n and substr(s, j + 1, 1) = c loop
              j := j + 1;
            end loop;
            for k in 3 .. (j - i + 1) loop
              out := out || (c || ':' || k);
            end loop;
            i := j + 1;
          end loop;
          return out;
        end
        $fn$`,
      )
      .execute(db);
    for (const [name, key] of INDEXES) await sql.raw(`create index if not exists "${name}" on devices using gin (search_runs(${key}))`).execute(db);
  },
  async down(db) {
    if (!isPg(db)) return;
    for (const [name] of INDEXES) await sql.raw(`drop index if exists "${name}"`).execute(db);
    await sql`drop function if exists search_runs(text)`.execute(db);
  },
};
