// The export pool's worker thread (piscina): its own read-only database connection, opened on the
// first task and kept for the next, and one export task at a time. The import threads run the same
// file: they parse CSV imports (the named task parseImport), which needs no connection, posting
// their progress, and write them (writeImport) over a read-write connection of their own.
import type { MessagePort } from 'node:worker_threads';
import { openSource, openSourceForWrites, type DB, type DbSource } from '../db/index.js';
import { exportTask, type ExportJob, type TaskResult } from './task.js';
import { importTask, type ImportInput, type ImportParseMessage } from './import-task.js';
import { importWriteTask, type ImportWriteJob, type ImportWriteResult } from './import-write.js';

export type WorkerInput = { source: DbSource; job: ExportJob; port: MessagePort; cap: number };
export type ImportWriteInput = { source: DbSource; job: ImportWriteJob; port: MessagePort };

let db: DB | undefined;
let writer: DB | undefined;

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

export function writeImport({ source, job, port }: ImportWriteInput): Promise<ImportWriteResult> {
  writer ??= openSourceForWrites(source);
  return importWriteTask(writer, job, port);
}
