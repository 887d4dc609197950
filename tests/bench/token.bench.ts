// Token endpoint throughput: password grants (argon2id verify each) and refresh grants
// (sha256 lookup + rotation), sequential and with 8 requests in flight, through app.request()
// over SQLite in memory. Imported by tests/bench/run.ts.
import { itemAt, percentile } from './stats.js';
import { createApp } from '../../src/server/app.js';
import { testConfig } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import { openSqlite } from '../../src/server/db/index.js';
import { migrateToLatest } from '../../src/server/db/migrations.js';
import { seedReferenceData } from '../../src/server/seed/reference.js';
import { hashPassword } from '../../src/server/auth/password.js';
import { insertPerson } from '../helpers/auth.js';

const EMAIL = 'bench@bench.test';
const PASSWORD = 'Bench-Passw0rd!';

type Tokens = { access_token: string; refresh_token: string };

export async function benchToken(opts: { seconds?: number } = {}): Promise<Record<string, number>> {
  const ms = (opts.seconds ?? 5) * 1000;
  const db = openSqlite(':memory:');
  await migrateToLatest(db);
  await seedReferenceData(db);
  // A confidential client (CLIENT_SECRETS): the figure is the grant itself, without solving a captcha per request.
  const config = testConfig({ clientSecrets: { bench: 'bench-secret' } });
  const log = () => {};
  const { app } = createApp({ db, config, outbox: createOutbox({ log, now: () => config.now() }), log });
  await insertPerson(db, { email: EMAIL, roles: ['SuperAdminRole'], passwordHash: await hashPassword(PASSWORD) });

  const post = (form: Record<string, string>) =>
    Promise.resolve(
      app.request('/connect/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      }),
    );
  const passwordGrant = async () => {
    const res = await post({ grant_type: 'password', client_id: 'bench', client_secret: 'bench-secret', username: EMAIL, password: PASSWORD });
    if (res.status !== 200) throw new Error(`password grant: ${res.status} ${await res.text()}`);
    return (await res.json()) as Tokens;
  };
  const refreshGrant = async (token: string) => {
    const res = await post({ grant_type: 'refresh_token', client_id: 'bench', client_secret: 'bench-secret', refresh_token: token });
    if (res.status !== 200) throw new Error(`refresh grant: ${res.status} ${await res.text()}`);
    return (await res.json()) as Tokens;
  };

  /** Runs `workers` loops until the time is up; each loop step is one request. */
  async function measure(workers: number, step: (worker: number) => Promise<void>) {
    const latencies: number[] = [];
    const started = performance.now();
    const deadline = started + ms;
    await Promise.all(
      Array.from({ length: workers }, async (_, w) => {
        while (performance.now() < deadline) {
          const t = performance.now();
          await step(w);
          latencies.push(performance.now() - t);
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => Math.round(percentile(latencies, p * 100) * 10) / 10;
    return { rps: Math.round((latencies.length / elapsed) * 10) / 10, p50: pct(0.5), p95: pct(0.95), n: latencies.length };
  }

  await passwordGrant(); // warm up (argon2 thread pool, JIT)

  const pwSeq = await measure(1, async () => void (await passwordGrant()));
  const pw8 = await measure(8, async () => void (await passwordGrant()));

  // Refresh: each worker follows its own rotating chain (a used token would revoke the family).
  const chains = await Promise.all(Array.from({ length: 8 }, () => passwordGrant().then((t) => t.refresh_token)));
  const advance = async (w: number) => {
    chains[w] = (await refreshGrant(itemAt(chains, w))).refresh_token;
  };
  const rfSeq = await measure(1, () => advance(0));
  const rf8 = await measure(8, advance);

  await db.destroy();

  const figures = {
    passwordGrantPerSecond: pwSeq.rps,
    passwordGrantP50Ms: pwSeq.p50,
    passwordGrantP95Ms: pwSeq.p95,
    passwordGrantConcurrency8PerSecond: pw8.rps,
    passwordGrantConcurrency8P95Ms: pw8.p95,
    refreshGrantPerSecond: rfSeq.rps,
    refreshGrantP50Ms: rfSeq.p50,
    refreshGrantConcurrency8PerSecond: rf8.rps,
    refreshGrantConcurrency8P95Ms: rf8.p95,
  };
  for (const [k, v] of Object.entries(figures)) console.log(`  ${k}: ${v}`);
  return figures;
}
