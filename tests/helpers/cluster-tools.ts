// What the cluster tests need from the machine: PostgreSQL's server binaries (initdb, pg_ctl),
// redis-server, and — when the tests run as root, which initdb refuses — runuser and a `postgres`
// user to run PostgreSQL as. CI provisions them (.ci/provision.sh); elsewhere the tests skip with
// the reason, and in CI (CI=true) they fail with it instead.
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { spawnSync } from 'node:child_process';

/** The compiled entry point `npm start` runs (dist/server, made current by the project's global set-up). */
export { compiledMain as CLUSTER_ENTRY } from '../../bin/server-build.mjs';

export const CI = process.env.CI === 'true' || process.env.CI === '1';

const executable = (p: string) => {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** PostgreSQL's bin directory: version 15 when installed, else the newest under /usr/lib/postgresql (PG_BIN overrides). */
export function pgBinDir(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (existsSync(join(root, '15/bin/initdb'))) return join(root, '15/bin');
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin/initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

export function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const p = join(dir, name);
    if (dir && executable(p)) return p;
  }
  return undefined;
}

export const isRoot = () => process.getuid?.() === 0;

/** The uid and gid of the `postgres` user, if there is one. */
export function postgresUser(): { uid: number; gid: number } | undefined {
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Why the cluster tests cannot run here, or undefined when they can. */
export function clusterToolsMissing(): string | undefined {
  const bin = pgBinDir();
  if (!bin || !executable(join(bin, 'initdb')) || !executable(join(bin, 'pg_ctl')))
    return 'PostgreSQL server binaries (initdb, pg_ctl) not found under /usr/lib/postgresql/*/bin (PG_BIN to point at them)';
  if (!onPath('redis-server')) return 'redis-server not found on PATH';
  if (isRoot() && (!onPath('runuser') || !postgresUser())) return 'running as root: runuser and a `postgres` user are needed to run initdb';
  return undefined;
}
