// What one export is, independent of where it runs: its sheet, its columns, its total and its rows
// page by page (keyset, never OFFSET). The modules define theirs (modules/*/export.ts); the
// export task (task.ts) writes any of them as a streamed .xlsx (or CSV) inside a pool worker.
import type { DB } from '../db/index.js';

export type CellValue = string | number | boolean | null | undefined;

export type ExportColumn<R> = {
  header: string;
  width: number;
  /** Text or number; for a date column an ISO instant (or null), written as a London-time date cell (CSV: en-GB London text). */
  value: (row: R) => CellValue;
  date?: boolean;
};

export type ExportDefinition<R> = {
  sheet: string;
  /** 'csv': a UTF-8 CSV (BOM, CRLF; dates as en-GB London text) instead of an .xlsx sheet. */
  format?: 'xlsx' | 'csv';
  columns: ExportColumn<R>[];
  /** How many rows match (before the cap). */
  count: (db: DB) => Promise<number>;
  /** The matching rows in file order, a page at a time; the caller stops reading at its cap. */
  pages: (db: DB) => AsyncIterable<R[]>;
};

/** Pages of a keyset query: `page(after, size)` gets the rows after the key of the previous page's last row. */
export async function* keysetPages<R, K>(page: (after: K | null, size: number) => Promise<R[]>, keyOf: (row: R) => K, size = 1000): AsyncIterable<R[]> {
  let after: K | null = null;
  for (;;) {
    const rows = await page(after, size);
    if (rows.length) yield rows;
    if (rows.length < size) return;
    after = keyOf(rows[rows.length - 1]!);
  }
}
