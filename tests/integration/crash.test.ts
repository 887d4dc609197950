// kill -9 in the middle of writes: the server is killed while 8 clients create persons as fast as
// they can; after a restart the database passes SQLite's integrity check, and every create the
// server had answered 201 is there with its roles (WAL + one transaction per write). Prints the
// figure quoted in the README's reliability section.
import { afterAll, expect, test } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../src/server/db/index.js';
import { loadConfig } from '../../src/server/platform/config.js';
import { tokenFor } from '../helpers/auth.js';
import { ROLE_IDS } from '../../src/shared/permissions.js';
import { sql } from 'kysely';
import { freePort } from '../helpers/ports.js';

const dir = mkdtempSync(join(tmpdir(), 'crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { DATA_DIR: dir, DEMO_DATA: 'false', JWT_SECRET: 'crash-test-secret-0123456789abcdef0123456789', LOG_REQUESTS: 'false', SKIP_CLIENT_BUILD: '1' };

async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'ignore',
  });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return child;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}

test.skipIf(process.env.TEST_DB === 'pg')(
  'kill -9 during concurrent writes: integrity holds and every answered write survives',
  async () => {
    const port = await freePort();
    const server = await startServer(port);
    const token = await tokenFor(loadConfig({ ...env }), ['SuperAdminRole']);
    const answered: string[] = [];
    let stop = false;
    let n = 0;
    const worker = async () => {
      while (!stop) {
        const email = `crash-${++n}-${Math.random().toString(36).slice(2, 8)}@staff.test`;
        try {
          const res = await fetch(`http://127.0.0.1:${port}/api/v1/person`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ person: { firstName: 'Crash', lastName: 'Test', emailAddress: email, roleIds: [ROLE_IDS.ArcSupervisorRole] } }),
          });
          if (res.status === 201) answered.push(((await res.json()) as { Id: string }).Id);
        } catch {
          return; // the server is gone
        }
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    // Kill once writes are flowing.
    while (answered.length < 50) await new Promise((r) => setTimeout(r, 20));
    server.kill('SIGKILL');
    stop = true;
    await Promise.all(workers);

    // Restart on the same files: recovery from the WAL, then look.
    const again = await startServer(port);
    again.kill('SIGTERM');
    await new Promise((r) => again.once('exit', r));
    const db = openSqlite(join(dir, 'workspace.sqlite'));
    try {
      const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
      expect(check.rows.map((r) => r.integrity_check)).toEqual(['ok']);
      const stored = new Set((await db.selectFrom('persons').select('id').execute()).map((r) => r.id));
      const missing = answered.filter((id) => !stored.has(id));
      const withRoles = new Set((await db.selectFrom('personRoles').select('personId').execute()).map((r) => r.personId));
      console.log(
        `kill -9: ${answered.length} writes answered 201 before the kill, ${missing.length} missing after restart, ${stored.size} persons stored, integrity ok`,
      );
      expect(missing).toEqual([]);
      // No half-written person: every stored person has its role row (one transaction per create).
      expect([...stored].filter((id) => !withRoles.has(id))).toEqual([]);
    } finally {
      await db.destroy();
    }
  },
  120_000,
);
