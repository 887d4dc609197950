// The checks every uploaded CSV passes (spec §5 generic CSV rules), for the device import and the
// devices-to-allocate import alike. On the request: the multipart field File, a CSV by its type
// (or a .csv name with a generic type), at most IMPORT_MAX_BYTES. On the pool thread that parses
// it: UTF-8 text with no NUL, and header cells matched case-insensitively, spaces ignored.
import { ApiError, badRequest, type Ctx } from '../http/api.js';
import { CODE, MSG } from '../../shared/messages.js';
import { DEVICE_CODE, DEVICE_TEXT, IMPORT_MAX_BYTES } from '../../shared/schemas/devices.js';
import { parseCsvChunks, type ParseProgress } from '../exports/csv-chunks.js';

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

/**
 * Reads an uploaded CSV a chunk of text at a time (cells split on comma or semicolon): the first
 * row to `header`, each row after it to `row`. False when the file cannot be read as CSV (not
 * UTF-8, a NUL in it, a CSV error, no header): 'Failed to parse CSV file.'. `progress` hears the
 * data rows parsed so far, of an estimate.
 */
export function readCsvRows(bytes: Uint8Array, on: { header: (cells: string[]) => void; row: (cells: string[]) => void }, progress?: ParseProgress): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  if (text.includes('\u0000')) return false;
  let headerSeen = false;
  const parsed = parseCsvChunks(
    text,
    (rows) => {
      for (const cells of rows) {
        if (headerSeen) on.row(cells);
        else {
          headerSeen = true;
          on.header(cells);
        }
      }
    },
    progress,
  );
  return parsed && headerSeen;
}

/** A header cell as column names are matched: case, spaces, '_' and '-' ignored. */
export const headerKey = (s: string) => s.replace(/[\s_-]/g, '').toLowerCase();
