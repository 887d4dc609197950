// Runs a command (argv after the output file) with the same output, and writes to the output file
// how long it ran and the CPU seconds the command and every process under it used
// ({ "seconds": N, "cpu": N }): what tests/run-all.ts prints for a step it runs in the background,
// whose processes it cannot count itself, and whose end it notices only between its other steps
// (Linux reads cutime + cstime of /proc/self/stat; elsewhere "cpu" is null). Exits with the
// command's status.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const [out, cmd, ...args] = process.argv.slice(2);
const t0 = Date.now();
const r = spawnSync(cmd, args, { stdio: 'inherit' });
const seconds = (Date.now() - t0) / 1000;
let cpu = null;
try {
  const f = (readFileSync('/proc/self/stat', 'utf8').split(') ')[1] ?? '').split(' ');
  cpu = (Number(f[13]) + Number(f[14])) / 100;
} catch {
  // not Linux: no figure
}
writeFileSync(out, JSON.stringify({ seconds, cpu }));
process.exit(r.status ?? 1);
