// The real server as a child process (what `npm start` runs) on a free port of its own, for tests
// about the process: start-up, SIGTERM drain, backups under load.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onFreePort } from './ports.js';

export type ServerProcess = {
  child: ChildProcess;
  port: number;
  url: string;
  /** everything written to stdout so far */
  output: () => string;
  /** resolves with the exit code */
  exited: Promise<number | null>;
};

export const tempDataDir = (prefix: string) => mkdtempSync(join(tmpdir(), `${prefix}-`));

export function serverEnv(dataDir: string, extra: Record<string, string> = {}) {
  return {
    DATA_DIR: dataDir,
    DEMO_DATA: 'false',
    JWT_SECRET: 'process-test-secret-0123456789abcdef0123456789',
    SKIP_CLIENT_BUILD: '1',
    HOST: '127.0.0.1',
    ...extra,
  };
}

/**
 * Starts `node <args>` with the env on a free port and waits until /ready answers 200; started
 * again on another port when the first was taken before the server could listen on it.
 */
export function startServerProcess(args: string[], env: Record<string, string>): Promise<ServerProcess> {
  return onFreePort((port) => startOnce(args, env, port));
}

async function startOnce(args: string[], env: Record<string, string>, port: number): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/ready`)).ok) return { child, port, url: `http://127.0.0.1:${port}`, output: () => out, exited };
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start:\n${out}`);
}

/** The JSON log lines of a server's output. */
export const logLines = (output: string) =>
  output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
