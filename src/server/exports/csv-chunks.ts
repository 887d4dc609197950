// CSV text parsed a chunk at a time, for the imports' parsers on a pool thread: each chunk's rows
// are handed on (and checked) as they are read, and after each chunk the rows parsed so far and an
// estimate of the file's rows (from the share of the text read) are reported, so an import's
// progress moves while its file is parsed. Papa's chunking rejoins a row split between two chunks.
import Papa from 'papaparse';

/** Data rows parsed so far (the header not counted) and the file's estimated data rows. */
export type ParseProgress = (rows: number, estimate: number) => void;

/** Characters of text per chunk (a progress step). */
export const CSV_CHUNK_CHARS = 32 * 1024;

/**
 * Parses CSV text (cells split on comma or semicolon, empty lines skipped), calling `onRows` with
 * each chunk's rows in file order (the first row of the first chunk is the header), then
 * `progress`. False when the text is not CSV (a parse error other than the delimiter's guess);
 * the rows seen until then have been handed on.
 */
export function parseCsvChunks(text: string, onRows: (rows: string[][]) => void, progress?: ParseProgress): boolean {
  let ok = true;
  let rows = 0;
  Papa.parse<string[]>(text, {
    delimitersToGuess: [',', ';'],
    skipEmptyLines: 'greedy',
    chunkSize: CSV_CHUNK_CHARS,
    chunk: (results: Papa.ParseResult<string[]>, parser: Papa.Parser) => {
      if (results.errors.some((e) => e.type !== 'Delimiter')) {
        ok = false;
        parser.abort();
        return;
      }
      onRows(results.data);
      rows += results.data.length;
      const data = Math.max(0, rows - 1);
      const read = Math.min(text.length, Math.max(1, results.meta.cursor));
      progress?.(data, Math.max(data, Math.round((data * text.length) / read)));
    },
    complete: () => {},
  });
  return ok;
}
