// Global setup of the `cluster` test project: compiles the server once, the way `npm run
// build:server` does (the same compiler and tsconfig.server.json), into a directory of the tests'
// own (.tmp/cluster-dist/server), so the nodes run the JavaScript that ships while another test
// (build-start) may be deleting and rebuilding dist/server. Compiled again only when a source
// under src/server or src/shared is newer than the build. Nothing is built when the PostgreSQL and
// Redis binaries the tests need are missing (they skip, or fail in CI, on their own).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CLUSTER_BUILD_DIR, CLUSTER_ENTRY, clusterToolsMissing } from './cluster-tools.js';

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (e.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

export default function setup() {
  if (clusterToolsMissing()) return;
  const built = existsSync(CLUSTER_ENTRY) ? statSync(CLUSTER_ENTRY).mtimeMs : 0;
  if (built && built >= Math.max(newestSource(resolve('src/server')), newestSource(resolve('src/shared')))) return;
  rmSync(CLUSTER_BUILD_DIR, { recursive: true, force: true });
  mkdirSync(CLUSTER_BUILD_DIR, { recursive: true });
  const started = Date.now();
  const r = spawnSync(process.execPath, ['node_modules/tsgo/bin/tsc', '-p', 'tsconfig.server.json', '--outDir', CLUSTER_BUILD_DIR], { encoding: 'utf8' });
  if (r.status !== 0 || !existsSync(CLUSTER_ENTRY)) throw new Error(`compiling the server for the cluster tests failed:\n${r.stdout}${r.stderr}`);
  console.log(`cluster tests: server compiled into ${CLUSTER_BUILD_DIR} in ${Date.now() - started} ms`);
}
