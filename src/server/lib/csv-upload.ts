// The checks every uploaded CSV passes (spec §5 generic CSV rules), for the device import and the
// devices-to-allocate import alike. On the request: the multipart field File, a CSV by its type
// (or a .csv name with a generic type), at most IMPORT_MAX_BYTES. On the pool thread that parses
// it: UTF-8 text with no NUL, and header cells matched case-insensitively, spaces ignored.
import { ApiError, badRequest, type Ctx } from '../http/api.js';
import { CODE, MSG } from '../../shared/messages.js';
import { DEVICE_CODE, DEVICE_TEXT, IMPORT_MAX_BYTES } from '../../shared/schemas/devices.js';

const CSV_TYPES = ['text/csv', 'application/csv', 'text/comma-separated-values', 'application/vnd.ms-excel'];

/** The bytes of the upload's field File: 400 when there is none, 415 when it is not a CSV, 413 when it is too large. */
export async function readCsvUpload(c: Ctx): Promise<Uint8Array> {
  let form: Record<string, unknown>;
  try {
    form = await c.req.parseBody();
  } catch {
    throw badRequest(DEVICE_TEXT.fileRequired, DEVICE_CODE.importInvalid);
  }
  const file = form.File ?? form.file;
  if (!(file instanceof File)) throw badRequest(DEVICE_TEXT.fileRequired, DEVICE_CODE.importInvalid);
  const type = (file.type.split(';')[0] ?? '').trim().toLowerCase();
  const csvName = /\.csv$/i.test(file.name);
  if (!(type === 'text/csv' || (CSV_TYPES.includes(type) && csvName) || ((type === '' || type === 'application/octet-stream') && csvName)))
    throw new ApiError(415, MSG.notCsv, DEVICE_CODE.importInvalid);
  if (file.size > IMPORT_MAX_BYTES) throw new ApiError(413, DEVICE_TEXT.fileTooLarge, CODE.tooLarge);
  return new Uint8Array(await file.arrayBuffer());
}

/** The file's text, or null when it cannot be read as CSV (not UTF-8, or a NUL in it): 'Failed to parse CSV file.'. */
export function csvText(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  return text.includes('\u0000') ? null : text;
}

/** A header cell as column names are matched: case, spaces, '_' and '-' ignored. */
export const headerKey = (s: string) => s.replace(/[\s_-]/g, '').toLowerCase();
