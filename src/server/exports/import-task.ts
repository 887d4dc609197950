// CSV import parsing, as a pool worker runs it: the request loop checks the upload (field, type,
// size) and hands the bytes over; the worker decodes, parses and validates the rows and answers
// the rows to write or the first problem, posting the rows parsed so far (of an estimate) over a
// port as it goes. Only the database writes stay on the request side.
import type { MessagePort } from 'node:worker_threads';
import { parseDeviceImport } from '../modules/devices/import-csv.js';
import { parseSerialsImport } from '../modules/customers/import-csv.js';
import type { NewDevice } from '../modules/devices/repo.js';

/** What to parse: plain data (it crosses to a worker thread; the bytes are transferred). */
export type ImportJob = { kind: 'devices'; bytes: Uint8Array } | { kind: 'serials'; bytes: Uint8Array };

/** The rows a file holds, or why it was refused (a 400 with the device import's code). */
export type ImportParsed<T> = { ok: true; rows: T[] } | { ok: false; message: string; errors?: Record<string, string> };

export type ImportRows = { devices: NewDevice; serials: string };

/** Parse thread → request side: rows of the file parsed so far, and the file's estimated rows. */
export type ImportParseMessage = { type: 'parsed'; rows: number; estimate: number };

/** What a parse thread is given: the job, and a port for its progress. */
export type ImportInput = { job: ImportJob; port?: MessagePort };

export function importTask(job: ImportJob, progress?: (rows: number, estimate: number) => void): ImportParsed<NewDevice> | ImportParsed<string> {
  return job.kind === 'devices' ? parseDeviceImport(job.bytes, progress) : parseSerialsImport(job.bytes, progress);
}
