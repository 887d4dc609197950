// Parsing of the device import CSV (spec §5): a header naming the columns (case-insensitive), comma
// or semicolon cells, rows with an empty serial skipped, per-row messages with line numbers, phone
// numbers normalised. Runs on the export pool's worker threads (src/server/exports/import-task.ts),
// never on the request loop; the rows are checked a chunk of text at a time, with progress.
import { badTextKind, TEXT_MESSAGES } from '../../http/api.js';
import { MSG } from '../../../shared/messages.js';
import { DEVICE_TYPES } from '../../../shared/codes.js';
import {
  DEVICE_TEXT,
  IMPORT_MAX_ROWS,
  IMPORT_OPTIONAL_COLUMNS,
  IMPORT_SERIAL_COLUMN,
  IMPORT_TYPE_COLUMN,
  SERIAL_MAX,
  TEXT_MAX,
} from '../../../shared/schemas/devices.js';
import { normalisePhone } from '../../../shared/phone.js';
import type { ImportParsed } from '../../exports/import-task.js';
import type { ParseProgress } from '../../exports/csv-chunks.js';
import { headerKey, readCsvRows } from '../../lib/csv-upload.js';
import type { NewDevice } from './repo.js';

const typeByName = new Map(DEVICE_TYPES.map((t) => [t.Name.toLowerCase(), t.Value]));
const typeValues = new Set(DEVICE_TYPES.map((t) => t.Value));

/**
 * The devices a CSV file holds, or the first problem (with every row's problem by line).
 * `progress` hears the rows parsed (and checked) so far, a chunk at a time, of an estimate.
 */
export function parseDeviceImport(bytes: Uint8Array, progress?: ParseProgress): ImportParsed<NewDevice> {
  const refuse = (message: string) => ({ ok: false, message }) as const;
  let header: string[] = [];
  let serialCol = -1;
  let typeCol = -1;
  let optional: (readonly [string, number])[] = [];
  let dataRows = 0;
  const errors: Record<string, string> = {};
  const seen = new Set<string>();
  const out: NewDevice[] = [];
  const col = (name: string) => header.findIndex((h) => headerKey(h ?? '') === headerKey(name));
  const check = (cells: string[], rowNo: number) => {
    const serial = (cells[serialCol] ?? '').trim();
    if (!serial) return; // spec §5: rows with an empty cell in the column are skipped
    const key = serial.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    const problem = (what: string) => (errors[`row ${rowNo}`] ??= DEVICE_TEXT.importRow(rowNo, what));
    // The boundary's text rule (NUL, lone surrogates, bidirectional controls) holds for every cell.
    for (const [idx, cell] of cells.entries()) {
      const bad = badTextKind(cell ?? '');
      if (bad) return problem(`${header[idx] ?? `column ${idx + 1}`}: ${TEXT_MESSAGES[bad]}`);
    }
    if (serial.length > SERIAL_MAX) return problem(DEVICE_TEXT.serialTooLong);
    const rawType = (cells[typeCol] ?? '').trim();
    const type = /^\d+$/.test(rawType) ? Number(rawType) : typeByName.get(rawType.toLowerCase());
    if (type === undefined || !typeValues.has(type)) return problem(DEVICE_TEXT.unknownType);
    const d: NewDevice = { serialNumber: serial, type };
    for (const [name, idx] of optional) {
      const val = (cells[idx] ?? '').trim();
      if (!val) continue;
      if (val.length > TEXT_MAX) return problem(`${name}: ${DEVICE_TEXT.tooLong}`);
      const k =
        name === 'IMEI'
          ? 'imei'
          : name === 'IMSI'
            ? 'imsi'
            : name === 'SimSerial'
              ? 'simSerial'
              : name === 'PhoneNumber'
                ? 'phoneNumber'
                : name === 'Supplier'
                  ? 'supplier'
                  : 'orderNumber';
      if (k === 'phoneNumber') {
        const phone = normalisePhone(val);
        if (!phone) return problem(DEVICE_TEXT.phoneInvalid);
        d.phoneNumber = phone;
      } else d[k] = val;
    }
    out.push(d);
  };
  const read = readCsvRows(
    bytes,
    {
      header: (cells) => {
        header = cells;
        serialCol = col(IMPORT_SERIAL_COLUMN);
        typeCol = col(IMPORT_TYPE_COLUMN);
        optional = IMPORT_OPTIONAL_COLUMNS.map((name) => [name, col(name)] as const).filter(([, i]) => i >= 0);
      },
      row: (cells) => {
        dataRows++;
        // Rows are checked only while the file can be imported; the rest is only parsed (a CSV
        // error anywhere still answers 'Failed to parse CSV file.', as the checks below order them).
        if (serialCol >= 0 && typeCol >= 0 && dataRows <= IMPORT_MAX_ROWS) check(cells, dataRows + 1); // 1-based, after the header
      },
    },
    progress,
  );
  if (!read) return refuse(MSG.csvParseFailed);
  if (serialCol < 0) return refuse(MSG.csvMissingColumn(IMPORT_SERIAL_COLUMN));
  if (typeCol < 0) return refuse(MSG.csvMissingColumn(IMPORT_TYPE_COLUMN));
  if (dataRows > IMPORT_MAX_ROWS) return refuse(DEVICE_TEXT.tooManyRows);
  const first = Object.values(errors)[0];
  if (first) return { ok: false, message: first, errors };
  if (!out.length) return refuse(DEVICE_TEXT.importNoRows);
  return { ok: true, rows: out };
}
