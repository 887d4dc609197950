// One export, as a pool worker runs it: counts the rows, then reads them a keyset page at a time and
// writes them as a streamed .xlsx (or as CSV text), posting the bytes over a MessagePort as they are
// written. The workbook's parts, the zip and the header row come from the streaming writer of
// @zurmokeeper/exceljs; the data rows' sheet XML is rendered here, a page at a time, and written
// into that writer's sheet stream. The port carries flow control both ways: the request side acks
// every chunk it has handed on, and the worker stops writing while MAX_IN_FLIGHT bytes are
// unacknowledged, so a slow download holds the worker instead of filling memory. A 'cancel'
// message stops it between rows; nothing is written to disk.
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import type { MessagePort } from 'node:worker_threads';
import type ExcelJS from '@zurmokeeper/exceljs';
import type { DB } from '../db/index.js';
import Papa from 'papaparse';
import { EXPORT_DATE_FORMAT, londonCellSerial, londonText } from '../../shared/export-format.js';
import { MSG } from '../../shared/messages.js';
import type { CellValue, ExportColumn, ExportDefinition } from './definition.js';
import { exportDefinitionOf, type ExportJob } from './registry.js';

export type { ExportJob, ExportRequest } from './registry.js';

// The streaming writer and its value types alone, not the package's index: the index loads the
// whole library (its readers, CSV, the in-memory workbook and their dependencies), 8.7 MB of heap
// in every export thread where the writer takes 3.4 MB. The package has no exports map, and these
// are the modules its index hands out (tests/integration/export*.test.ts read the files back).
const require = createRequire(import.meta.url);
const WorkbookWriter = require('@zurmokeeper/exceljs/lib/stream/xlsx/workbook-writer.js') as typeof ExcelJS.stream.xlsx.WorkbookWriter;
const { ValueType } = require('@zurmokeeper/exceljs/lib/doc/enums.js') as { ValueType: typeof ExcelJS.ValueType };

/** Worker → request side. */
export type TaskMessage =
  /** A thread has taken the export (it was waiting for one until now); its rows are being counted. */
  | { type: 'begin' }
  | { type: 'start'; total: number }
  | { type: 'data'; chunk: Uint8Array }
  | { type: 'progress'; written: number }
  | { type: 'end'; written: number; omitted: number; cancelled: boolean };
/** Request side → worker. */
export type ControlMessage = { type: 'ack'; bytes: number } | { type: 'cancel' };

export type TaskResult = { written: number; omitted: number; cancelled: boolean };

type StyleRegistry = { addStyleModel: (model: Record<string, unknown>, cellType?: number) => number };

/** Characters XML text must not hold as they are: escaped, or (controls XML 1.0 forbids) dropped, as the writer does. */
// eslint-disable-next-line no-control-regex
const XML_SPECIAL = /[<>&"'\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// eslint-disable-next-line no-control-regex
const XML_SPECIAL_ALL = /[<>&"'\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
const XML_ESCAPE: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' };
export const xmlText = (s: string) => (XML_SPECIAL.test(s) ? s.replace(XML_SPECIAL_ALL, (ch) => XML_ESCAPE[ch] ?? '') : s);

/** 'A', 'B', … 'Z', 'AA', … for a 0-based column index. */
export function columnLetters(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** One cell's XML: text as the writer writes it without shared strings, a number, a yes/no; nothing for no value. */
function cellXml(ref: string, v: CellValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return `<c r="${ref}" t="str"><v>${xmlText(v)}</v></c>`;
  if (typeof v === 'number') return Number.isFinite(v) ? `<c r="${ref}"><v>${v}</v></c>` : '';
  return `<c r="${ref}" t="b"><v>${v ? 1 : 0}</v></c>`;
}

/**
 * Renders data rows as sheet XML, as the streaming writer would (same cell types, a date as a
 * serial number with the date column's style), without its per-cell row, cell and style models:
 * those were two thirds of an export's CPU. `dateStyle` is the style id of EXPORT_DATE_FORMAT.
 */
export function sheetRows<R>(columns: ExportColumn<R>[], dateStyle: number) {
  const letters = columns.map((_, i) => columnLetters(i));
  return (row: R, rowNumber: number): string => {
    let xml = `<row r="${rowNumber}">`;
    for (let i = 0; i < columns.length; i++) {
      const c = columns[i]!;
      const ref = letters[i]! + rowNumber;
      if (c.date) {
        const serial = londonCellSerial(c.value(row) as string | null);
        if (serial !== undefined) xml += `<c r="${ref}" s="${dateStyle}"><v>${serial}</v></c>`;
      } else xml += cellXml(ref, c.value(row));
    }
    return xml + '</row>';
  };
}

/** A row of one text cell (the note of rows left out). */
const noteRowXml = (rowNumber: number, text: string) => `<row r="${rowNumber}">${cellXml(`A${rowNumber}`, text)}</row>`;

/** Uncompressed sheet XML that may wait for the zip before the next page is read. */
const MAX_SHEET_BACKLOG = 1024 * 1024;

/**
 * Bytes of sheet XML written but not yet taken by the zip. The streaming writer's sheet stream
 * pushes into a PassThrough that the zip reads (internals of @zurmokeeper/exceljs 4.x, checked by
 * the export tests' memory assertion); 0 when that shape is not found.
 */
export function sheetBacklog(ws: unknown): number {
  // readable-stream's PassThrough (the zip's own copy of Node streams) has no writableLength getter.
  type Pipe = { writableLength?: number; _writableState?: { length?: number } };
  const pipe = (ws as { stream?: { pipes?: Pipe[] } }).stream?.pipes?.[0];
  const n = pipe?.writableLength ?? pipe?._writableState?.length;
  return typeof n === 'number' ? n : 0;
}

/** Unacknowledged bytes a worker may have posted (a small file is written whole without waiting). */
const MAX_IN_FLIGHT = 256 * 1024;

export async function exportTask(db: DB, job: ExportJob, port: MessagePort, cap: number): Promise<TaskResult> {
  let inFlight = 0;
  let cancelled = false;
  let waiters: (() => void)[] = [];
  /** Resolves at the next ack or cancel. */
  const changed = () => new Promise<void>((r) => waiters.push(r));
  let onCancel!: () => void;
  const cancelSignal = new Promise<'cancelled'>((r) => (onCancel = () => r('cancelled')));
  // Node takes a transfer list as the second argument (its types only describe the web options object).
  const post = (m: TaskMessage, transfer?: ArrayBuffer[]) => port.postMessage(m, transfer as never);
  port.on('message', (m: ControlMessage) => {
    if (m.type === 'ack') inFlight -= m.bytes;
    else if (m.type === 'cancel') {
      cancelled = true;
      onCancel();
    }
    const woken = waiters;
    waiters = [];
    for (const w of woken) w();
  });
  const room = async () => {
    while (inFlight >= MAX_IN_FLIGHT && !cancelled) await changed();
  };
  try {
    post({ type: 'begin' });
    const def = exportDefinitionOf(job);
    const total = await def.count(db);
    post({ type: 'start', total });
    if (total === 0 || cancelled) return end({ written: 0, omitted: 0, cancelled });
    if (def.format === 'csv') return end(await writeCsv(def));

    const out = new Writable({
      highWaterMark: 256 * 1024,
      write(chunk: Buffer, _enc, done) {
        if (cancelled) return done();
        const copy = new Uint8Array(chunk); // its own buffer, moved (not copied) to the request side
        inFlight += copy.byteLength;
        post({ type: 'data', chunk: copy }, [copy.buffer as ArrayBuffer]);
        room().then(() => done(), done);
      },
    });
    const finished = new Promise<void>((resolve, reject) => {
      out.on('finish', resolve);
      out.on('error', reject);
    });
    const wb = new WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const ws = wb.addWorksheet(def.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = def.columns.map((c, i) => ({
      key: String(i),
      header: c.header,
      width: c.width,
      ...(c.date ? { style: { numFmt: EXPORT_DATE_FORMAT } } : {}),
    }));
    // The header row goes through the writer (it writes the columns and opens the sheet data
    // first); the data rows are rendered here and written into the same sheet stream after it.
    ws.getRow(1).commit();
    const sheet = (ws as unknown as { stream: { write: (xml: string) => unknown } }).stream;
    const dateStyle = (wb as unknown as { styles: StyleRegistry }).styles.addStyleModel({ numFmt: EXPORT_DATE_FORMAT }, ValueType.Date);
    const render = sheetRows(def.columns, dateStyle);
    let written = 0;
    read: for await (const rows of def.pages(db)) {
      let xml = '';
      for (const r of rows) {
        if (written >= cap || cancelled) {
          if (xml) sheet.write(xml);
          break read;
        }
        xml += render(r, written + 2);
        written++;
      }
      if (xml) sheet.write(xml);
      post({ type: 'progress', written });
      // The zip writer compresses on libuv's threads: let the event loop turn so the page's bytes
      // reach the port, and wait while the download has not taken them (flat memory, any size).
      await new Promise((r) => setImmediate(r));
      // The writer hands the sheet's XML to the zip without heeding back-pressure: wait while the
      // zip has not taken it, or a fast reader would pile the whole uncompressed sheet up in memory.
      while (sheetBacklog(ws) > MAX_SHEET_BACKLOG && !cancelled) await new Promise((r) => setTimeout(r, 2));
      while ((out.writableNeedDrain || inFlight >= MAX_IN_FLIGHT) && !cancelled)
        await new Promise<void>((r) => {
          const go = () => (out.off('drain', go), r());
          out.once('drain', go);
          waiters.push(go);
        });
    }
    if (cancelled) {
      out.destroy();
      return end({ written, omitted: 0, cancelled: true });
    }
    const omitted = written >= cap ? Math.max(0, total - written) : 0;
    if (omitted) sheet.write(noteRowXml(written + 2, MSG.exportRowsLeftOut(omitted, cap)));
    ws.commit();
    // Cancelled while the rest is flushed: stop there.
    if ((await Promise.race([wb.commit().then(() => finished), cancelSignal])) === 'cancelled') {
      out.destroy();
      return end({ written, omitted: 0, cancelled: true });
    }
    return end({ written, omitted, cancelled: false });
  } finally {
    port.removeAllListeners('message');
  }

  /**
   * A CSV: a BOM and the header, then each page's rows (CRLF, dates as en-GB London text) encoded
   * and posted as the page is read, waiting while the download has not taken them.
   */
  async function writeCsv(def: ExportDefinition<unknown>): Promise<TaskResult> {
    const enc = new TextEncoder();
    const send = async (text: string) => {
      const bytes = enc.encode(text);
      inFlight += bytes.byteLength;
      post({ type: 'data', chunk: bytes }, [bytes.buffer as ArrayBuffer]);
      await room();
    };
    const columns = def.columns;
    await send('\uFEFF' + Papa.unparse([columns.map((c) => c.header)], { newline: '\r\n' }));
    let written = 0;
    for await (const rows of def.pages(db)) {
      if (cancelled) break;
      const page = rows.slice(0, Math.max(0, cap - written));
      if (page.length)
        await send(
          '\r\n' +
            Papa.unparse(
              page.map((r) => columns.map((c) => (c.date ? londonText(c.value(r) as string | null) : (c.value(r) ?? '')))),
              { newline: '\r\n' },
            ),
        );
      written += page.length;
      post({ type: 'progress', written });
      if (written >= cap) break;
    }
    return { written, omitted: 0, cancelled };
  }

  function end(r: TaskResult): TaskResult {
    post({ type: 'end', ...r });
    return r;
  }
}
