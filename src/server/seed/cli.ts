// `npm run seed -- --seed N --scale X [--reset] [--now ISO]`
// Opens the configured database (DATA_DIR's SQLite file, or DATABASE_URL), makes sure the reference
// data exists, and generates the demo data set. Refuses to add demo data on top of existing
// persons unless --reset is given, which first deletes every non-reference row.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../platform/config.js';
import { openDatabase, type DB } from '../db/index.js';
import { seedReferenceData } from './reference.js';
import { seedDemoData, hasData, DEMO_TABLES } from './demo.js';
import { DEMO_ACCOUNTS } from './accounts.js';
import { log } from '../platform/logger.js';

export { DEMO_TABLES };

export async function resetDemoData(db: DB) {
  await db.transaction().execute(async (trx) => {
    for (const t of DEMO_TABLES) await trx.deleteFrom(t).execute();
  });
}

type Args = { seed?: number; scale?: number; reset: boolean; now?: Date; help: boolean };

export function parseArgs(argv: string[]): Args {
  const out: Args = { reset: false, help: false };
  const rest = argv.values(); // value() takes the next argument from the same iterator
  for (const a of rest) {
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => {
      const v = inline ?? rest.next().value;
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--seed') out.seed = Number(value());
    else if (flag === '--scale') out.scale = Number(value());
    else if (flag === '--now') out.now = new Date(value());
    else if (flag === '--reset') out.reset = true;
    else if (flag === '--help' || flag === '-h') out.help = true;
    else throw new Error(`unknown option ${a}`);
  }
  if (out.seed !== undefined && !Number.isInteger(out.seed)) throw new Error('--seed must be an integer');
  if (out.scale !== undefined && !(Number.isFinite(out.scale) && out.scale > 0)) throw new Error('--scale must be a positive number');
  if (out.now && Number.isNaN(out.now.getTime())) throw new Error('--now must be an ISO date-time');
  return out;
}

async function main() {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\nUsage: npm run seed -- [--seed N] [--scale X] [--reset] [--now ISO]\n`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(
      'Usage: npm run seed -- [--seed N] [--scale X] [--reset] [--now ISO]\n  --seed   PRNG seed (default SEED or 1)\n  --scale  size multiplier; 1 = 2,000 customers, 100,000 devices, 20,000 persons, 50,000 alarm reports (default SCALE or 1)\n  --reset  delete existing demo/customer data first\n  --now    reference instant for dates (default: now)\n',
    );
    return;
  }
  const config = loadConfig();
  const seed = args.seed ?? config.seed;
  const scale = args.scale ?? config.scale;
  const db = await openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: join(config.dataDir, 'workspace.sqlite'), sqlite: config.sqlite });
  try {
    await seedReferenceData(db);
    if (await hasData(db)) {
      if (!args.reset) {
        process.stderr.write('The database already holds persons; run with --reset to replace them with demo data.\n');
        process.exitCode = 1;
        return;
      }
      const t = performance.now();
      await resetDemoData(db);
      process.stdout.write(`Deleted existing data in ${Math.round(performance.now() - t)} ms\n`);
    }
    const r = await seedDemoData(db, { seed, scale, password: config.demoPassword, log, now: args.now ?? new Date() });
    process.stdout.write(`\nDemo data (seed ${seed}, scale ${scale}) generated in ${(r.ms / 1000).toFixed(1)} s\n`);
    for (const [table, n] of Object.entries(r.counts)) process.stdout.write(`  ${table.padEnd(22)} ${n.toLocaleString('en-GB')}\n`);
    process.stdout.write(`\nDemo sign-ins (password: ${config.demoPassword}):\n${DEMO_ACCOUNTS.map((a) => `  ${a.email.padEnd(28)} ${a.label}`).join('\n')}\n`);
  } finally {
    await db.destroy();
  }
}

const isMain = !!process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain)
  main().catch((e) => {
    process.stderr.write(`${(e as Error).stack ?? e}\n`);
    process.exit(1);
  });
