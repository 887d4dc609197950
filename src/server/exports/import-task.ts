// CSV import parsing, as a pool worker runs it: the request loop checks the upload (field, type,
// size) and hands the bytes over; the worker decodes, parses and validates the rows and answers
// the rows to write or the first problem, posting the rows parsed so far (of an estimate) over a
// port as it goes. Only the database writes stay on the request side.
import type { MessagePort } from 'node:worker_threads';
import { importParserOf, type ImportKinds, type ImportParsed } from './registry.js';

export type { ImportParsed } from './registry.js';

/** What to parse: plain data (it crosses to a worker thread; the bytes are transferred). */
export type ImportJob = { [K in keyof ImportKinds]: { kind: K; bytes: Uint8Array } }[keyof ImportKinds];

/** Each import kind's parsed row. */
export type ImportRows = ImportKinds;

/** Parse thread → request side: rows of the file parsed so far, and the file's estimated rows. */
export type ImportParseMessage = { type: 'parsed'; rows: number; estimate: number };

/** What a parse thread is given: the job, and a port for its progress. */
export type ImportInput = { job: ImportJob; port?: MessagePort };

export function importTask(job: ImportJob, progress?: (rows: number, estimate: number) => void): ImportParsed<unknown> {
  return importParserOf(job.kind)(job.bytes, progress);
}
