// The export pool's worker thread (piscina): its own read-only database connection, opened on the
// first task and kept for the next, and one export task at a time. The same threads parse CSV
// imports (the named task parseImport), which needs no connection, posting their progress.
import type { MessagePort } from 'node:worker_threads';
import { openSource, type DB, type DbSource } from '../db/index.js';
import { exportTask, type ExportJob, type TaskResult } from './task.js';
import { importTask, type ImportInput, type ImportParseMessage } from './import-task.js';

export type WorkerInput = { source: DbSource; job: ExportJob; port: MessagePort; cap: number };

let db: DB | undefined;

export default async function run({ source, job, port, cap }: WorkerInput): Promise<TaskResult> {
  db ??= openSource(source);
  // The request side closes the port once it has the 'end' message (closing here could drop it).
  return exportTask(db, job, port, cap);
}

export function parseImport({ job, port }: ImportInput) {
  // The parse is synchronous: each progress message is posted as it happens (the request side
  // receives it on its own loop, and closes the port once it has the answer).
  return importTask(job, port && ((rows, estimate) => port.postMessage({ type: 'parsed', rows, estimate } satisfies ImportParseMessage)));
}
