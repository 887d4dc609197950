// Export jobs over HTTP: the response of every export route (a streamed .xlsx named by the spec's
// label and a timestamp, with the job id, total and rows left out in headers), the job's progress
// and its cancellation. The export routes themselves stay in their modules.
import * as v from 'valibot';
import { ApiError, badRequest, deps, notFound, type Api, type AuthUser, type Ctx } from '../http.js';
import { CODE, MSG } from '../../shared/messages.js';
import { EXPORT_ID_HEADER, EXPORT_OMITTED_HEADER, EXPORT_TOTAL_HEADER, exportIdParam, type ExportProgress } from '../../shared/schemas/exports.js';
import type { MessageResponse } from '../../shared/schemas/common.js';
import type { ExportPool } from './pool.js';
import type { ExportRequest } from './task.js';
import { tenantScope } from '../tenant-scope.js';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** 'Devices_20261122_203000.xlsx' */
export function exportFileName(label: string, at: Date) {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${label}_${at.getUTCFullYear()}${p(at.getUTCMonth() + 1)}${p(at.getUTCDate())}_${p(at.getUTCHours())}${p(at.getUTCMinutes())}${p(at.getUTCSeconds())}.xlsx`;
}

/**
 * Runs an export in the pool and answers its file as it is written, its rows narrowed to the
 * caller's tenant scope (the job carries it to the worker). Nothing matching: 400 'Export payload
 * is empty'. A failure before the first byte: 500 with the module's message.
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
  const asked = c.req.header(EXPORT_ID_HEADER);
  const id = asked && v.is(exportIdParam, asked) ? asked : undefined;
  let started;
  try {
    started = await pool.start(user.id, { ...job, scope: tenantScope(user) }, id);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw new ApiError(500, failMessage, CODE.internal);
  }
  if (started.total === 0) {
    await started.body.cancel();
    throw badRequest(MSG.exportPayloadEmpty, CODE.validation);
  }
  await onCounted?.(started.total);
  return c.body(started.body, 200, {
    'Content-Type': XLSX_TYPE,
    'Content-Disposition': `attachment; filename="${exportFileName(label, deps(c).config.now())}"`,
    'Cache-Control': 'no-store',
    [EXPORT_ID_HEADER]: started.id,
    [EXPORT_TOTAL_HEADER]: String(started.total),
    [EXPORT_OMITTED_HEADER]: String(started.omitted),
    'Access-Control-Expose-Headers': [EXPORT_ID_HEADER, EXPORT_TOTAL_HEADER, EXPORT_OMITTED_HEADER].join(', '),
  });
}

function jobId(c: Ctx): string {
  const id = c.req.param('id') ?? '';
  if (!v.is(exportIdParam, id)) throw notFound();
  return id;
}

export function exportRoutes(api: Api, pool: ExportPool) {
  api.get('/api/v1/export/progress/:id', { access: 'signed-in' }, (c, { user }) => {
    const p = pool.progress(user.id, jobId(c));
    if (!p) throw notFound();
    return c.json(p satisfies ExportProgress);
  });
  api.delete('/api/v1/export/:id', { access: 'signed-in' }, (c, { user }) => {
    if (!pool.cancel(user.id, jobId(c))) throw notFound();
    return c.json({ Content: { Message: MSG.exportCancelled } } satisfies MessageResponse);
  });
}
