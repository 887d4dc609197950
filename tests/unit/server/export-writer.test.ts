// The streaming .xlsx writer as an export worker drives it: the sheet's back-pressure is read
// where the writer hides it, and the data rows' sheet XML rendered by the worker reads back as the
// writer's own cells would (text, numbers, yes/no, London dates, characters XML must escape).
import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import ExcelJS from '@zurmokeeper/exceljs';
import { readXlsx } from '../../helpers/xlsx.js';
import { columnLetters, sheetBacklog, sheetRows, xmlText } from '../../../src/server/exports/task.js';
import type { ExportColumn } from '../../../src/server/exports/definition.js';
import { EXPORT_DATE_FORMAT } from '../../../src/shared/export-format.js';

const row = (i: number) => [`SERIAL-${String(i).padStart(8, '0')}`, 'Some customer name that is long enough', i, new Date(Date.UTC(2026, 6, 1, 12))];

describe('export writer', () => {
  it('sees the sheet XML that the zip has not taken (a stalled download holds it)', async () => {
    const stalled = new Writable({ write() {} }); // never calls back: the download does not read
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: stalled, useStyles: true, useSharedStrings: false });
    const ws = wb.addWorksheet('Rows');
    expect(sheetBacklog(ws)).toBe(0);
    for (let i = 0; i < 20_000; i++) ws.addRow(row(i)).commit();
    await new Promise((r) => setImmediate(r));
    // Without a wait on this figure every row's XML would pile up in memory.
    expect(sheetBacklog(ws)).toBeGreaterThan(1024 * 1024);
  });

  it('names columns as a spreadsheet does and escapes what XML text must not hold', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(columnLetters)).toEqual(['A', 'B', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
    expect(xmlText('plain')).toBe('plain');
    expect(xmlText(`a<b>&"c'\u0001d\te\nf\u007f`)).toBe('a&lt;b&gt;&amp;&quot;c&apos;d\te\nf');
  });

  it('rendered rows read back as the cells they hold: text, numbers, yes/no, London dates, nothing for none', async () => {
    type R = { s: string | null; n: number; b: boolean; d: string | null };
    const columns: ExportColumn<R>[] = [
      { header: 'Text', width: 10, value: (r) => r.s },
      { header: 'Number', width: 10, value: (r) => r.n },
      { header: 'Yes', width: 10, value: (r) => r.b },
      { header: 'Date (UK time)', width: 10, value: (r) => r.d, date: true },
    ];
    const rows: R[] = [
      { s: 'Tom & Jerry <Ltd> "quoted"', n: 42, b: true, d: '2026-07-01T12:00:00.000Z' },
      { s: null, n: 1.5, b: false, d: null },
      { s: '=1+1', n: -3, b: false, d: '2026-01-15T12:00:00.000Z' },
    ];
    const chunks: Buffer[] = [];
    const out = new Writable({ write: (c: Buffer, _e, done) => (chunks.push(c), done()) });
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const ws = wb.addWorksheet('Rows');
    ws.columns = columns.map((c, i) => ({ key: String(i), header: c.header, width: c.width, ...(c.date ? { style: { numFmt: EXPORT_DATE_FORMAT } } : {}) }));
    ws.getRow(1).commit();
    const dateStyle = (wb as unknown as { styles: { addStyleModel: (m: object, t: number) => number } }).styles.addStyleModel(
      { numFmt: EXPORT_DATE_FORMAT },
      4,
    );
    const render = sheetRows(columns, dateStyle);
    expect(render(rows[1]!, 3)).toBe('<row r="3"><c r="B3"><v>1.5</v></c><c r="C3" t="b"><v>0</v></c></row>');
    (ws as unknown as { stream: { write: (s: string) => void } }).stream.write(rows.map((r, i) => render(r, i + 2)).join(''));
    ws.commit();
    const done = new Promise((r) => out.on('finish', r));
    await wb.commit();
    await done;
    const [sheet] = await readXlsx(Buffer.concat(chunks));
    const wall = (x: unknown) => new Date(Math.round((x as Date).getTime() / 1000) * 1000).toISOString();
    expect(sheet!.data[0]).toEqual(['Text', 'Number', 'Yes', 'Date (UK time)']);
    expect(sheet!.data.slice(1).map((r) => [r[0], r[1], r[2], r[3] === null ? null : wall(r[3])])).toEqual([
      ['Tom & Jerry <Ltd> "quoted"', 42, true, '2026-07-01T13:00:00.000Z'],
      [null, 1.5, false, null],
      ['=1+1', -3, false, '2026-01-15T12:00:00.000Z'],
    ]);
    expect(sheet!.data[1]![3]).toBeInstanceOf(Date);
  });
});
