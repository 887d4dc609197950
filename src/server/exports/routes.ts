// Export and import jobs over HTTP: the response of every export route (a streamed .xlsx named by
// the spec's label and a timestamp, with the job id, total and rows left out in headers), the run of
// a CSV import as a job, a job's progress and its cancellation. The export and import routes
// themselves stay in their modules.
import * as v from 'valibot';
import { ApiError, badRequest, deps, notFound, type Api, type AuthUser, type Ctx } from '../http/api.js';
import { CODE, MSG } from '../../shared/messages.js';
import { EXPORT_ID_HEADER, EXPORT_OMITTED_HEADER, EXPORT_TOTAL_HEADER, exportIdParam, type ExportProgress } from '../../shared/schemas/exports.js';
import type { MessageResponse } from '../../shared/schemas/common.js';
import { ImportCancelled, type ExportPool, type ImportJobHandle } from './pool.js';
import { WorkerFailed } from './threads.js';
import type { ExportRequest } from './task.js';
import { tenantScope } from '../auth/tenant-scope.js';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** 'Devices_20261122_203000.xlsx' */
export function exportFileName(label: string, at: Date) {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${label}_${at.getUTCFullYear()}${p(at.getUTCMonth() + 1)}${p(at.getUTCDate())}_${p(at.getUTCHours())}${p(at.getUTCMinutes())}${p(at.getUTCSeconds())}.xlsx`;
}

/**
 * Runs an export in the pool and answers its file as it is written, its rows narrowed to the
 * caller's tenant scope (the job carries it to the worker). Nothing matching: 400 'Export payload
 * is empty'. A failure before the first byte: 500 with the module's message (code worker_failed
 * when the export's thread died).
 */
export async function exportResponse(
  c: Ctx,
  pool: ExportPool,
  user: AuthUser,
  job: ExportRequest,
  label: string,
  failMessage: string,
  onCounted?: (total: number) => Promise<unknown>,
): Promise<Response> {
  return fileResponse(c, pool, user, job, failMessage, XLSX_TYPE, exportFileName(label, deps(c).config.now()), onCounted);
}

/** 'CurrentConfiguration_2026-11-22.csv' */
export const csvFileName = (label: string, at: Date) => `${label}_${at.toISOString().slice(0, 10)}.csv`;

/** exportResponse for a CSV export (a UTF-8 CSV named by the label and the date). */
export function csvExportResponse(c: Ctx, pool: ExportPool, user: AuthUser, job: ExportRequest, label: string, failMessage: string): Promise<Response> {
  return fileResponse(c, pool, user, job, failMessage, 'text/csv; charset=utf-8', csvFileName(label, deps(c).config.now()));
}

async function fileResponse(
  c: Ctx,
  pool: ExportPool,
  user: AuthUser,
  job: ExportRequest,
  failMessage: string,
  type: string,
  fileName: string,
  onCounted?: (total: number) => Promise<unknown>,
): Promise<Response> {
  const asked = c.req.header(EXPORT_ID_HEADER);
  const id = asked && v.is(exportIdParam, asked) ? asked : undefined;
  let started;
  try {
    started = await pool.start(user.id, { ...job, scope: tenantScope(user) }, id);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw new ApiError(500, failMessage, e instanceof WorkerFailed ? CODE.workerFailed : CODE.internal);
  }
  if (started.total === 0) {
    await started.body.cancel();
    throw badRequest(MSG.exportPayloadEmpty, CODE.validation);
  }
  await onCounted?.(started.total);
  return c.body(started.body, 200, {
    'Content-Type': type,
    'Content-Disposition': `attachment; filename="${fileName}"`,
    'Cache-Control': 'no-store',
    [EXPORT_ID_HEADER]: started.id,
    [EXPORT_TOTAL_HEADER]: String(started.total),
    [EXPORT_OMITTED_HEADER]: String(started.omitted),
    'Access-Control-Expose-Headers': [EXPORT_ID_HEADER, EXPORT_TOTAL_HEADER, EXPORT_OMITTED_HEADER].join(', '),
  });
}

/**
 * Runs a CSV import as a job of the pool, before its upload is read: one per user (429 otherwise),
 * its progress at the job's progress endpoint under the X-Export-Id the client sent, cancelled by
 * DELETE — then nothing is written (the import's transaction rolls back) and the answer is 409
 * 'Import cancelled. Nothing was imported.'.
 */
export async function importJob<T>(c: Ctx, pool: ExportPool, user: AuthUser, run: (job: ImportJobHandle) => Promise<T>): Promise<T> {
  const asked = c.req.header(EXPORT_ID_HEADER);
  const job = await pool.beginImport(user.id, asked && v.is(exportIdParam, asked) ? asked : undefined);
  c.header(EXPORT_ID_HEADER, job.id);
  c.header('Access-Control-Expose-Headers', EXPORT_ID_HEADER);
  let ok = false;
  try {
    const out = await run(job);
    ok = true;
    return out;
  } catch (e) {
    if (e instanceof ImportCancelled || job.signal.aborted) throw new ApiError(409, MSG.importCancelled, CODE.importCancelled);
    throw e;
  } finally {
    job.end(ok);
  }
}

function jobId(c: Ctx): string {
  const id = c.req.param('id') ?? '';
  if (!v.is(exportIdParam, id)) throw notFound();
  return id;
}

export function exportRoutes(api: Api, pool: ExportPool) {
  api.get('/api/v1/export/progress/:id', { access: 'signed-in' }, async (c, { user }) => {
    const p = await pool.progress(user.id, jobId(c));
    if (!p) throw notFound();
    return c.json(p satisfies ExportProgress);
  });
  api.delete('/api/v1/export/:id', { access: 'signed-in' }, async (c, { user }) => {
    const kind = await pool.cancel(user.id, jobId(c));
    if (!kind) throw notFound();
    return c.json({ Content: { Message: kind === 'import' ? MSG.importCancelled : MSG.exportCancelled } } satisfies MessageResponse);
  });
}
