// CSV import parsing, as a pool worker runs it: the request loop checks the upload (field, type,
// size) and hands the bytes over; the worker decodes, parses and validates the rows and answers
// the rows to write or the first problem. Only the database writes stay on the request side.
import { parseDeviceImport } from '../modules/devices/import-csv.js';
import { parseSerialsImport } from '../modules/customers/import-csv.js';
import type { NewDevice } from '../modules/devices/repo.js';

/** What to parse: plain data (it crosses to a worker thread; the bytes are transferred). */
export type ImportJob = { kind: 'devices'; bytes: Uint8Array } | { kind: 'serials'; bytes: Uint8Array };

/** The rows a file holds, or why it was refused (a 400 with the device import's code). */
export type ImportParsed<T> = { ok: true; rows: T[] } | { ok: false; message: string; errors?: Record<string, string> };

export type ImportRows = { devices: NewDevice; serials: string };

export function importTask(job: ImportJob): ImportParsed<NewDevice> | ImportParsed<string> {
  return job.kind === 'devices' ? parseDeviceImport(job.bytes) : parseSerialsImport(job.bytes);
}
