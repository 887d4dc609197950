// Runs a command (argv after the output file) with the same output, and writes to the output file
// the CPU seconds the command and every process under it used ({ "cpu": N }): what tests/run-all.ts
// prints for a step it runs in the background, whose processes it cannot count itself (Linux reads
// cutime + cstime of /proc/self/stat; elsewhere the file says null). Exits with the command's status.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const [out, cmd, ...args] = process.argv.slice(2);
const r = spawnSync(cmd, args, { stdio: 'inherit' });
let cpu = null;
try {
  const f = (readFileSync('/proc/self/stat', 'utf8').split(') ')[1] ?? '').split(' ');
  cpu = (Number(f[13]) + Number(f[14])) / 100;
} catch {
  // not Linux: no figure
}
writeFileSync(out, JSON.stringify({ cpu }));
process.exit(r.status ?? 1);
