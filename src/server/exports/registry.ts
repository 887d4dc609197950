// The export and import kinds the pool runs, registered by the modules that own them
// (modules/<area>/exports.ts, all loaded by modules/export-definitions.ts in the server and in each
// pool thread). The pool imports no module: it looks a job's kind up here. A module declares its
// kinds' request fields by adding to the interfaces below (declaration merging), so routes and the
// pool stay typed by kind.
import type { DB } from '../db/types.js';
import type { TenantScope } from '../auth/tenant-scope.js';
import type { ExportDefinition } from './definition.js';
import type { ParseProgress } from './csv-chunks.js';

/** Each export kind's request fields (besides `kind`), declared by the module that registers it. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ExportKinds {}
/** Each import kind's parsed row, declared by the module that registers its parser. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ImportKinds {}

/** What to export, as a route asks for it (plain data: it crosses to a worker thread). */
export type ExportRequest = { [K in keyof ExportKinds]: { kind: K } & ExportKinds[K] }[keyof ExportKinds];
/** An export as the worker runs it, with the tenant scope of the caller who asked for it. */
export type ExportJob = ExportRequest & { scope: TenantScope };

/** The rows a file holds, or why it was refused (a 400 with the import's code). */
export type ImportParsed<T> = { ok: true; rows: T[] } | { ok: false; message: string; errors?: Record<string, string> };

/** An import's writes: a look-up (reads, a step at a time) and the writes of one transaction. */
export type ImportWriter<Row, Plan extends { idList: string[]; alreadyPresent: string[] }> = {
  /** the audit entry written with the rows */
  audit: { action: string; entity: string };
  plan: (db: DB, rows: Row[], now: Date, o: { size: number; check: () => Promise<void> }) => Promise<Plan>;
  write: (trx: DB, plan: Plan, progress: { step: (done: number) => Promise<void> }) => Promise<number>;
};

type AnyExportBuilder = (job: ExportJob) => ExportDefinition<unknown>;
type AnyParser = (bytes: Uint8Array, progress?: ParseProgress) => ImportParsed<unknown>;
type AnyWriter = ImportWriter<unknown, { idList: string[]; alreadyPresent: string[] }>;

const exporters = new Map<string, AnyExportBuilder>();
const parsers = new Map<string, AnyParser>();
const writers = new Map<string, AnyWriter>();

export function registerExport<K extends keyof ExportKinds, Row>(
  kind: K,
  build: (job: { kind: K; scope: TenantScope } & ExportKinds[K]) => ExportDefinition<Row>,
) {
  exporters.set(kind, build as unknown as AnyExportBuilder);
}

export function registerImport<K extends keyof ImportKinds, Plan extends { idList: string[]; alreadyPresent: string[] }>(
  kind: K,
  parse: (bytes: Uint8Array, progress?: ParseProgress) => ImportParsed<ImportKinds[K]>,
  writer?: ImportWriter<ImportKinds[K], Plan>,
) {
  parsers.set(kind, parse);
  if (writer) writers.set(kind, writer as unknown as AnyWriter);
}

function registered<T>(map: Map<string, T>, what: string, kind: string): T {
  const found = map.get(kind);
  if (!found) throw new Error(`no ${what} registered for '${kind}' (modules/export-definitions.ts)`);
  return found;
}

export const exportDefinitionOf = (job: ExportJob) => registered(exporters, 'export', job.kind)(job);
export const importParserOf = (kind: string) => registered(parsers, 'import parser', kind);
export const importWriterOf = (kind: string) => registered(writers, 'import writer', kind);
