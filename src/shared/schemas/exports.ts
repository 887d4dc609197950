// Export jobs (ours): every .xlsx export runs as a job in the server's export pool. The export
// routes answer the file as a stream, with these headers:
//   X-Export-Id: the job id (the client may choose it by sending X-Export-Id: <uuid>)
//   X-Export-Total: rows matching; X-Export-Omitted: rows left out beyond the cap (EXPORT_ROW_CAP)
// GET /api/v1/export/progress/{id} → ExportProgress (the job's owner only; 404 otherwise)
// DELETE /api/v1/export/{id} → cancels the job (the worker stops, the download ends)
// Refusals: 429 { Content: { Message, Code: 'export_busy' } } while the user has an export queued or
// running; 429 with Code 'export_queue_full' when too many exports wait for the pool.
// CSV imports (devices, devices to allocate) are jobs of the same kind: the upload carries
// X-Export-Id, the same progress (Written: rows written or looked up; Total: the file's rows, null
// until it is parsed; Parsed: while it is parsed, the file's rows read so far and an estimate of its
// rows from the share of the file read, null otherwise) and DELETE (nothing is written; the upload answers 409 'import_cancelled');
// refusals 429 'import_busy' and 'import_queue_full'.
import * as v from 'valibot';

export const EXPORT_ID_HEADER = 'X-Export-Id';
export const EXPORT_TOTAL_HEADER = 'X-Export-Total';
export const EXPORT_OMITTED_HEADER = 'X-Export-Omitted';

export const exportJobStates = ['queued', 'running', 'done', 'cancelled', 'failed'] as const;
export type ExportJobState = (typeof exportJobStates)[number];

export const exportProgressSchema = v.strictObject({
  Id: v.string(),
  State: v.picklist(exportJobStates),
  Written: v.number(),
  /** null until the worker has counted the rows */
  Total: v.nullable(v.number()),
  Omitted: v.number(),
  /** an import whose file is being parsed: rows read so far, of an estimate of the file's rows; null otherwise */
  Parsed: v.nullable(v.strictObject({ Rows: v.number(), Estimate: v.number() })),
});
export type ExportProgress = v.InferOutput<typeof exportProgressSchema>;

export const exportIdParam = v.pipe(v.string(), v.uuid('Invalid export id.'));
