// Parsing of the devices-to-allocate CSV (spec §5 generic CSV rules). Runs on the export pool's
// worker threads (src/server/exports/import-task.ts), never on the request loop.
import Papa from 'papaparse';
import { MSG } from '../../../shared/messages.js';
import { DEVICE_TEXT, IMPORT_MAX_ROWS, SERIAL_MAX } from '../../../shared/schemas/devices.js';
import { ALLOCATE_IMPORT_COLUMN } from '../../../shared/schemas/customers.js';
import type { ImportParsed } from '../../exports/import-task.js';

const normHeader = (s: string) => s.replace(/[\s_-]/g, '').toLowerCase();

/**
 * A CSV with a SerialNumber column (case-insensitive, spaces ignored); cells split on comma or
 * semicolon; rows with an empty serial skipped. The distinct serials (case-insensitive) in file order.
 */
export function parseSerialsImport(bytes: Uint8Array): ImportParsed<string> {
  const refuse = (message: string) => ({ ok: false, message }) as const;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return refuse(MSG.csvParseFailed);
  }
  if (text.includes('\u0000')) return refuse(MSG.csvParseFailed);
  const parsed = Papa.parse<string[]>(text, { delimitersToGuess: [',', ';'], skipEmptyLines: 'greedy' });
  if (parsed.errors.some((e) => e.type !== 'Delimiter') || !parsed.data.length) return refuse(MSG.csvParseFailed);
  const [header = [], ...rows] = parsed.data;
  const col = header.findIndex((h) => normHeader(h ?? '') === normHeader(ALLOCATE_IMPORT_COLUMN));
  if (col < 0) return refuse(MSG.csvMissingColumn(ALLOCATE_IMPORT_COLUMN));
  if (rows.length > IMPORT_MAX_ROWS) return refuse(DEVICE_TEXT.tooManyRows);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const cells of rows) {
    const serial = (cells[col] ?? '').trim();
    if (!serial) continue;
    if (serial.length > SERIAL_MAX) return refuse(DEVICE_TEXT.serialTooLong);
    const k = serial.toLowerCase();
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(serial);
  }
  if (!out.length) return refuse(DEVICE_TEXT.importNoRows);
  return { ok: true, rows: out };
}
