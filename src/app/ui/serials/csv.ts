// Serial numbers from a CSV file (spec §5 generic CSV rules): the file must be text/csv, the
// header must contain the requested column (case-insensitive), cells split on comma or semicolon,
// rows with an empty cell in that column are skipped, a parse failure says so.
import Papa from 'papaparse';
import { MSG } from '../../../shared/messages';

export type CsvResult = { ok: true; values: string[] } | { ok: false; error: string };

/** Browsers on Windows report .csv as application/vnd.ms-excel, some as ''; the name decides then. */
export function isCsvFile(file: { type: string; name: string }): boolean {
  if (file.type === 'text/csv') return true;
  return (file.type === '' || file.type === 'application/vnd.ms-excel') && /\.csv$/i.test(file.name);
}

export function parseCsvColumn(text: string, column: string): CsvResult {
  let rows: string[][];
  try {
    const r = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { delimitersToGuess: [',', ';'], skipEmptyLines: 'greedy' });
    if (r.errors.some((e) => e.type === 'Quotes')) return { ok: false, error: MSG.csvParseFailed };
    rows = r.data;
  } catch {
    return { ok: false, error: MSG.csvParseFailed };
  }
  const header = (rows[0] ?? []).map((h) => String(h).trim().toLowerCase());
  const col = header.indexOf(column.toLowerCase());
  if (col < 0) return { ok: false, error: MSG.csvMissingColumn(column) };
  const values: string[] = [];
  for (const row of rows.slice(1)) {
    const v = String(row[col] ?? '').trim();
    if (v) values.push(v);
  }
  return { ok: true, values };
}

export async function readCsvColumn(file: File, column: string): Promise<CsvResult> {
  if (!isCsvFile(file)) return { ok: false, error: MSG.notCsv };
  let text: string;
  try {
    text = await file.text();
  } catch {
    return { ok: false, error: MSG.csvParseFailed };
  }
  return parseCsvColumn(text, column);
}
