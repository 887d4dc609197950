// 039_person_list_search: the person list's search (a part of `searchText`: first name, last name
// and e-mail address, lower-case) read from a trigram index on both databases instead of a LIKE over
// every person (decision "The person list's search reads a trigram index of its search text",
// docs/decisions/persons-and-permissions.md).
//
// - SQLite: persons_list_fts, an FTS5 contentless-delete table with the trigram tokenizer over
//   `searchText` (rowid = the person's rowid), kept by triggers as migration 002's search tables
//   are; the list keeps its LIKE for the exact match.
// - PostgreSQL: persons_search_text_trgm, a pg_trgm GIN index on `searchText`, which the list's
//   LIKE reads directly.
//
// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts.
// The SQLite table and its triggers are rebuilt by live code too (modules/search/fts.ts).
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);

const FTS = 'persons_list_fts';

export const m039: Migration = {
  async up(db) {
    if (isPg(db)) {
      await run(db, `create index "persons_search_text_trgm" on "persons" using gin ("searchText" gin_trgm_ops)`);
      await run(db, `analyze persons`);
      return;
    }
    await run(db, `create virtual table "${FTS}" using fts5(text, tokenize = 'trigram', content = '', contentless_delete = 1)`);
    await run(db, `insert into "${FTS}" (rowid, text) select rowid, "searchText" from persons`);
    // INSERT OR REPLACE: a rowid reused after an unrecorded delete must not make the base insert
    // fail. The triggers' text is the one modules/search/fts.ts writes when it rebuilds them.
    const put = `insert or replace into "${FTS}" (rowid, text) values (new.rowid, new."searchText");`;
    const drop = `delete from "${FTS}" where rowid = old.rowid;`;
    await run(db, `create trigger "${FTS}_ai" after insert on "persons" begin\n      ${put}\n    end`);
    await run(db, `create trigger "${FTS}_ad" after delete on "persons" begin\n      ${drop}\n    end`);
    await run(db, `create trigger "${FTS}_au" after update of "searchText" on "persons" begin\n      ${drop}\n      ${put}\n    end`);
  },
  async down(db) {
    if (isPg(db)) {
      await run(db, `drop index if exists "persons_search_text_trgm"`);
      return;
    }
    for (const t of ['ai', 'ad', 'au']) await run(db, `drop trigger if exists "${FTS}_${t}"`);
    await run(db, `drop table if exists "${FTS}"`);
  },
};
