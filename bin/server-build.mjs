// The compiled server (dist/server) kept current: `ensureServerBuilt()` compiles it when it is
// missing or older than a source file of the server (src/server, src/shared) or its tsconfig.
// `npm start` calls it before it runs the build, and the integration tests' global set-up calls it
// once before the tests that start the compiled server, so both run what an operator runs.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const compiledMain = join(root, 'dist/server/server/main.js');
const compiler = join(root, 'node_modules/tsgo/bin/tsc');

function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (/\.(ts|tsx|json)$/.test(e.name)) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/** True when dist/server is missing or older than a source. */
export function serverBuildStale() {
  const built = existsSync(compiledMain) ? statSync(compiledMain).mtimeMs : 0;
  const sources = ['src/server', 'src/shared'].map((d) => join(root, d)).filter((d) => existsSync(d));
  const config = join(root, 'tsconfig.server.json');
  return built < Math.max(...sources.map(newestSource), existsSync(config) ? statSync(config).mtimeMs : 0);
}

/**
 * Compiles the server when the build is stale. Returns what it did; `say` prints a line. Exits the
 * process (status 1) only when there is no build to run afterwards.
 */
export function ensureServerBuilt(say = (line) => process.stdout.write(`${line}\n`)) {
  if (!serverBuildStale()) return 'current';
  const built = existsSync(compiledMain);
  if (!existsSync(compiler)) {
    if (!built) {
      process.stderr.write('dist/server is missing and the TypeScript compiler is not installed: run `npm ci && npm run build` first\n');
      process.exit(1);
    }
    say('dist/server is older than the sources and the compiler is not installed: running the existing build');
    return 'stale';
  }
  const t0 = Date.now();
  say(built ? 'The server sources changed: compiling dist/server…' : 'Compiling the server into dist/server…');
  // A clean output folder: a deleted source leaves no stale module behind.
  rmSync(join(root, 'dist/server'), { recursive: true, force: true });
  const r = spawnSync(process.execPath, [compiler, '-p', join(root, 'tsconfig.server.json')], { cwd: root, stdio: 'inherit' });
  // The compiler still writes the JavaScript when it reports type errors; only a missing output stops.
  if (!existsSync(compiledMain)) {
    process.stderr.write('the server did not compile (see above)\n');
    process.exit(1);
  }
  if (r.status !== 0) say('the server compiled with type errors (see above); `npm run typecheck` lists them');
  say(`Compiled in ${Date.now() - t0} ms`);
  return 'compiled';
}
