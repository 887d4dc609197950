// Which database a connection talks to, for the code that writes SQL differently for each.
// (Migrations keep their own copy of this test: they import nothing outside db/migrations/.)
import { type Kysely, PostgresAdapter } from 'kysely';

/** True when `db` talks to PostgreSQL, false for SQLite. */
export const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
