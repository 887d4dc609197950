// Parsing of the devices-to-allocate CSV (spec §5 generic CSV rules). Runs on the export pool's
// worker threads (src/server/exports/import-task.ts), never on the request loop; read a chunk of
// text at a time, with progress.
import { MSG } from '../../../shared/messages.js';
import { DEVICE_TEXT, IMPORT_MAX_ROWS, SERIAL_MAX } from '../../../shared/schemas/devices.js';
import { ALLOCATE_IMPORT_COLUMN } from '../../../shared/schemas/customers.js';
import type { ImportParsed } from '../../exports/import-task.js';
import type { ParseProgress } from '../../exports/csv-chunks.js';
import { headerKey, readCsvRows } from '../../lib/csv-upload.js';

/**
 * A CSV with a SerialNumber column (case-insensitive, spaces ignored); cells split on comma or
 * semicolon; rows with an empty serial skipped. The distinct serials (case-insensitive) in file order.
 * `progress` hears the rows parsed so far, a chunk at a time, of an estimate.
 */
export function parseSerialsImport(bytes: Uint8Array, progress?: ParseProgress): ImportParsed<string> {
  const refuse = (message: string) => ({ ok: false, message }) as const;
  let col = -1;
  let dataRows = 0;
  let tooLong = false;
  const seen = new Set<string>();
  const out: string[] = [];
  const read = readCsvRows(
    bytes,
    {
      header: (cells) => {
        col = cells.findIndex((h) => headerKey(h ?? '') === headerKey(ALLOCATE_IMPORT_COLUMN));
      },
      row: (cells) => {
        dataRows++;
        if (col < 0 || tooLong || dataRows > IMPORT_MAX_ROWS) return; // only parsed: the file is refused below
        const serial = (cells[col] ?? '').trim();
        if (!serial) return;
        if (serial.length > SERIAL_MAX) {
          tooLong = true;
          return;
        }
        const k = serial.toLowerCase();
        if (seen.has(k)) return;
        seen.add(k);
        out.push(serial);
      },
    },
    progress,
  );
  if (!read) return refuse(MSG.csvParseFailed);
  if (col < 0) return refuse(MSG.csvMissingColumn(ALLOCATE_IMPORT_COLUMN));
  if (dataRows > IMPORT_MAX_ROWS) return refuse(DEVICE_TEXT.tooManyRows);
  if (tooLong) return refuse(DEVICE_TEXT.serialTooLong);
  if (!out.length) return refuse(DEVICE_TEXT.importNoRows);
  return { ok: true, rows: out };
}
