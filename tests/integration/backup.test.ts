// `npm run backup` while the server takes writes, then `npm run restore` into an empty data
// directory: the restored database passes SQLite's integrity check, holds every person whose
// create was answered 201 before the backup started, and is one consistent moment (every person
// in it has the roles written in the same transaction).
import { afterAll, expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openSqlite } from '../../src/server/db/index.js';
import { loadConfig } from '../../src/server/platform/config.js';
import { ROLE_IDS } from '../../src/shared/permissions.js';
import { tokenFor } from '../helpers/auth.js';
import { serverEnv, startServerProcess, tempDataDir } from '../helpers/process.js';

const live = tempDataDir('backup-live');
const restored = tempDataDir('backup-restored');
afterAll(() => {
  rmSync(live, { recursive: true, force: true });
  rmSync(restored, { recursive: true, force: true });
});

const cli = (command: 'backup' | 'restore', file: string, dataDir: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/server/db/backup-cli.ts', command, file], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });

test.skipIf(process.env.TEST_DB === 'pg')(
  'a backup taken under write load restores with every committed row',
  async () => {
    const env = serverEnv(live, { LOG_REQUESTS: 'false' });
    const srv = await startServerProcess(['bin/start.mjs'], env);
    const token = await tokenFor(loadConfig({ ...env }), ['SuperAdminRole']);
    const answered: { id: string; at: number }[] = [];
    let stop = false;
    let n = 0;
    const worker = async () => {
      while (!stop) {
        const email = `backup-${++n}-${Math.random().toString(36).slice(2, 8)}@staff.test`;
        const res = await fetch(`${srv.url}/api/v1/person`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ person: { firstName: 'Backup', lastName: 'Test', emailAddress: email, roleIds: [ROLE_IDS.ArcSupervisorRole] } }),
        });
        if (res.status === 201) answered.push({ id: ((await res.json()) as { Id: string }).Id, at: performance.now() });
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    try {
      while (answered.length < 100) await new Promise((r) => setTimeout(r, 20));
      const backupFile = join(live, 'copy.sqlite');
      const startedAt = performance.now();
      const backup = cli('backup', backupFile, live); // the server keeps writing meanwhile
      expect(backup.status, backup.stderr).toBe(0);
      expect(backup.stdout).toMatch(/backup of .* written to .*copy\.sqlite: \d+ bytes, \d+ pages, \d+ persons, \d+ ms, integrity ok/);
      const beforeBackup = answered.filter((a) => a.at < startedAt).map((a) => a.id);
      // more writes after the backup, which the restore must not have
      const count = answered.length;
      while (answered.length < count + 20) await new Promise((r) => setTimeout(r, 20));
      stop = true;
      await Promise.all(workers);

      const restore = cli('restore', backupFile, restored);
      expect(restore.status, restore.stderr).toBe(0);
      expect(restore.stdout).toMatch(/restored .* in \d+ ms, integrity ok/);
      const db = openSqlite(join(restored, 'workspace.sqlite'));
      try {
        const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
        expect(check.rows.map((r) => r.integrity_check)).toEqual(['ok']);
        const ids = new Set((await db.selectFrom('persons').select('id').where('email', 'like', 'backup-%').execute()).map((r) => r.id));
        expect(beforeBackup.length).toBeGreaterThanOrEqual(100);
        expect(beforeBackup.filter((id) => !ids.has(id))).toEqual([]);
        expect(ids.size).toBeLessThan(answered.length); // a snapshot: the writes after it are not there
        const withRoles = new Set((await db.selectFrom('personRoles').select('personId').execute()).map((r) => r.personId));
        expect([...ids].filter((id) => !withRoles.has(id))).toEqual([]);
      } finally {
        await db.destroy();
      }

      // restoring over an existing database keeps the previous one beside it
      const again = cli('restore', backupFile, restored);
      expect(again.status, again.stderr).toBe(0);
      expect(again.stdout).toContain('the previous database is kept as');
      expect(existsSync(join(restored, 'workspace.sqlite.before-restore'))).toBe(true);
    } finally {
      stop = true;
      srv.child.kill('SIGTERM');
      await srv.exited;
    }
  },
  120_000,
);

test('backup and restore say what is wrong in one line', () => {
  const missing = cli('backup', join(restored, 'x.sqlite'), join(restored, 'nowhere'));
  expect(missing.status).toBe(1);
  expect(missing.stderr.trim()).toMatch(/^no database at .*workspace\.sqlite \(set DATA_DIR to the server's data directory\)$/);
  const usage = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/db/backup-cli.ts', 'backup'], { encoding: 'utf8' });
  expect(usage.status).toBe(2);
  expect(usage.stderr).toContain('usage: npm run backup -- <file>');
});
