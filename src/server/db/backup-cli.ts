// `npm run backup -- <file>`: a consistent copy of DATA_DIR's SQLite database while the server runs.
// `npm run restore -- <file>`: with the server stopped, puts a backup in place of DATA_DIR's
// database (the current one is kept as workspace.sqlite.before-restore). docs/operations.md.
import { join, resolve } from 'node:path';
import { existsSync, mkdirSync } from 'node:fs';
import { backupSqlite, restoreSqlite } from './backup.js';

async function main() {
  const [command, file] = process.argv.slice(2);
  if ((command !== 'backup' && command !== 'restore') || !file) {
    process.stderr.write('usage: npm run backup -- <file>   |   npm run restore -- <file>   (DATA_DIR selects the database; default ./data)\n');
    process.exit(2);
  }
  if (process.env.DATABASE_URL) {
    process.stderr.write('DATABASE_URL is set: back up PostgreSQL with pg_dump -Fc and restore with pg_restore (docs/operations.md)\n');
    process.exit(2);
  }
  const dataDir = resolve(process.env.DATA_DIR ?? './data');
  const database = join(dataDir, 'workspace.sqlite');
  if (command === 'backup') {
    const r = await backupSqlite(database, resolve(file));
    process.stdout.write(`backup of ${database} written to ${r.file}: ${r.bytes} bytes, ${r.pages} pages, ${r.persons} persons, ${r.ms} ms, integrity ok\n`);
  } else {
    if (!existsSync(dataDir)) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const r = await restoreSqlite(resolve(file), database);
    process.stdout.write(
      `restored ${resolve(file)} into ${database} in ${r.ms} ms, integrity ok${r.kept ? `; the previous database is kept as ${r.kept}` : ''}\n`,
    );
  }
}

main().catch((e) => {
  process.stderr.write(`${(e as Error)?.message ?? e}\n`);
  process.exit(1);
});
