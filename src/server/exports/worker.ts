// The export pool's worker thread (piscina): its own read-only database connection, opened on the
// first task and kept for the next, and one export task at a time. The same threads parse CSV
// imports (the named task parseImport), which needs no connection.
import type { MessagePort } from 'node:worker_threads';
import { openSource, type DB, type DbSource } from '../db/index.js';
import { exportTask, type ExportJob, type TaskResult } from './task.js';
import { importTask, type ImportJob } from './import-task.js';

export type WorkerInput = { source: DbSource; job: ExportJob; port: MessagePort; cap: number };

let db: DB | undefined;

export default async function run({ source, job, port, cap }: WorkerInput): Promise<TaskResult> {
  db ??= openSource(source);
  // The request side closes the port once it has the 'end' message (closing here could drop it).
  return exportTask(db, job, port, cap);
}

export function parseImport(job: ImportJob) {
  return importTask(job);
}
