// `npm start`: runs the compiled server (dist/server, made by `npm run build`) when it is there and
// newer than every source file of the server; otherwise the TypeScript sources through tsx, so a
// fresh clone starts with `npm install && npm start` and an edited source is never shadowed by an
// older build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const compiled = join(root, 'dist/server/server/main.js');

function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (e.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

const built = existsSync(compiled) ? statSync(compiled).mtimeMs : 0;
if (built && built >= Math.max(newestSource(join(root, 'src/server')), newestSource(join(root, 'src/shared')))) {
  await import(compiled);
} else {
  if (built) process.stdout.write('dist/server is older than the sources: running them through tsx (npm run build compiles them again)\n');
  const { register } = await import('tsx/esm/api');
  register();
  await import(join(root, 'src/server/main.ts'));
}
