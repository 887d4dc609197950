// Export jobs (src/shared/schemas/exports.ts): an export request carries an id the client chose
// (X-Export-Id), so its progress can be polled while the file downloads, and it can be cancelled
// (the download is aborted and the server's worker stops).
import { http } from './http';
import { EXPORT_ID_HEADER, type ExportProgress } from '../../shared/schemas/exports';

/** What an export call takes besides its filters. */
export type ExportCall = { signal?: AbortSignal; exportId?: string };
export const exportHeaders = (o: ExportCall): Record<string, string> => (o.exportId ? { [EXPORT_ID_HEADER]: o.exportId } : {});

/** GET /api/v1/export/progress/{id} */
export const exportProgress = (id: string, signal?: AbortSignal) => http<ExportProgress>(`/api/v1/export/progress/${encodeURIComponent(id)}`, { signal });

/** DELETE /api/v1/export/{id} */
export const cancelExport = (id: string) => http<unknown>(`/api/v1/export/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** How often a running export's progress is asked for. */
export const EXPORT_POLL_MS = 400;
