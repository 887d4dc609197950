// A query made a fence for the query around it (db/dialect.ts `fence`): read first, sorted after.
// Each database gets the OFFSET it takes (SQLite only after a LIMIT), and the fenced rows come back
// in the outer query's order.
import { describe, expect, test } from 'vitest';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { fence } from '../../../src/server/db/dialect.js';

type T = { t: { id: number; name: string } };

describe('fence', () => {
  test('on SQLite the subquery reads with LIMIT -1 OFFSET 0, and the outer order and page apply to its rows', async () => {
    const raw = new SQLite(':memory:');
    const db = new Kysely<T>({ dialect: new SqliteDialect({ database: raw }) });
    try {
      raw.exec("create table t (id integer primary key, name text not null); insert into t (name) values ('c'), ('a'), ('d'), ('b');");
      const q = db
        .selectFrom(fence(db, db.selectFrom('t').select(['id', 'name']).where('name', '!=', 'd')).as('m'))
        .selectAll('m')
        .orderBy('m.name', 'desc')
        .limit(2);
      const compiled = q.compile();
      expect(compiled.sql).toMatch(/\(select .* limit \? offset \?\) as "m"/);
      expect(compiled.parameters).toEqual(['d', -1, 0, 2]);
      expect((await q.execute()).map((r) => r.name)).toEqual(['c', 'b']);
    } finally {
      await db.destroy();
    }
  });

  test('on PostgreSQL the subquery reads with OFFSET 0 alone', () => {
    // Compiling connects to nothing.
    const db = new Kysely<T>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: 'postgres://127.0.0.1:1/none' }) }) });
    const compiled = db
      .selectFrom(fence(db, db.selectFrom('t').select(['id', 'name'])).as('m'))
      .selectAll('m')
      .orderBy('m.name')
      .limit(2)
      .compile();
    expect(compiled.sql).toMatch(/\(select "id", "name" from "t" offset \$1\) as "m" order by "m"."name" limit \$2/);
    expect(compiled.parameters).toEqual([0, 2]);
  });
});
