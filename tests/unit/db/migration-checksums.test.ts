// A released migration is history: the SQL it runs must not change, or databases migrated before
// and after the change would differ. Every file of src/server/db/migrations/ (the migrations and
// their frozen helpers in lib/) has its sha256 recorded in src/server/db/migrations/checksums.json;
// a file whose content differs from its record fails here. A new migration is a new file, listed
// at the end of src/server/db/migrations.ts, whose checksum is added to the record:
// `UPDATE_MIGRATION_CHECKSUMS=1 npx vitest run --project unit tests/unit/db/migration-checksums.test.ts`
// adds the files that have none and never changes a recorded one.
import { describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { migrations } from '../../../src/server/db/migrations.js';

const DIR = join(process.cwd(), 'src/server/db/migrations');
const RECORD = join(DIR, 'checksums.json');
const ADD = 'UPDATE_MIGRATION_CHECKSUMS=1 npx vitest run --project unit tests/unit/db/migration-checksums.test.ts';

/** The migrations' source files, relative to DIR with '/' separators, sorted. */
function sourceFiles(dir = DIR): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [relative(DIR, join(dir, e.name)).split('\\').join('/')] : []))
    .sort();
}
const sha256 = (file: string) =>
  createHash('sha256')
    .update(readFileSync(join(DIR, file)))
    .digest('hex');

describe('released migrations', () => {
  const recorded = JSON.parse(readFileSync(RECORD, 'utf8')) as Record<string, string>;
  const files = sourceFiles();

  test('every migration file has a recorded checksum, and every record a file', () => {
    const unrecorded = files.filter((f) => !(f in recorded));
    if (unrecorded.length && process.env.UPDATE_MIGRATION_CHECKSUMS === '1') {
      const next = { ...recorded };
      for (const f of unrecorded) next[f] = sha256(f);
      const sorted = Object.fromEntries(
        Object.keys(next)
          .sort()
          .map((k) => [k, next[k]]),
      );
      writeFileSync(RECORD, `${JSON.stringify(sorted, null, 2)}\n`);
      return;
    }
    expect(
      unrecorded,
      `new migration files without a checksum: once the migration is final, record it with\n  ${ADD}\nand commit src/server/db/migrations/checksums.json`,
    ).toEqual([]);
    expect(
      Object.keys(recorded).filter((f) => !files.includes(f)),
      'recorded migration files that are gone: a released migration is never deleted (a database that ran it would stop at start-up)',
    ).toEqual([]);
  });

  test('no released migration file has changed', () => {
    const changed = files.filter((f) => f in recorded && recorded[f] !== sha256(f));
    expect(
      changed,
      'released migration files changed: a migration runs the same SQL for as long as it exists. Undo the change and write a new migration (the next number, listed at the end of src/server/db/migrations.ts); a helper it needs goes into a new file of src/server/db/migrations/lib',
    ).toEqual([]);
  });

  test('every numbered migration file is in the list, in order, and the list holds only those', () => {
    const numbered = files.filter((f) => /^\d{3}-[\w-]+\.ts$/.test(f)).map((f) => f.slice(0, 3));
    const listed = Object.keys(migrations).map((name) => name.slice(0, 3));
    expect(listed, 'src/server/db/migrations.ts lists each migration file once, by its number, in order (add a new one at the end)').toEqual(numbered);
    expect([...listed].sort(), 'the list is in the order Kysely runs it (by name)').toEqual(listed);
  });
});
