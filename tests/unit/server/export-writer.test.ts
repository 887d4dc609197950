// The streaming .xlsx writer as an export worker drives it: the sheet's back-pressure is read
// where the writer hides it, and cell styles are looked up once per number format.
import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import ExcelJS from '@zurmokeeper/exceljs';
import { memoiseCellStyles, sheetBacklog } from '../../../src/server/exports/task.js';

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

  it('gives every cell of one number format the same style id as the writer would', () => {
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: new Writable({ write: (_c, _e, done) => done() }), useStyles: true });
    const styles = (wb as unknown as { styles: { addStyleModel: (m: object | null, t?: number) => number } }).styles;
    const plainBefore = styles.addStyleModel({}, 2);
    const dateBefore = styles.addStyleModel({ numFmt: 'dd/mm/yyyy hh:mm:ss' }, 4);
    memoiseCellStyles(wb);
    expect(styles.addStyleModel({}, 2)).toBe(plainBefore);
    expect(styles.addStyleModel({ numFmt: 'dd/mm/yyyy hh:mm:ss' }, 4)).toBe(dateBefore);
    expect(styles.addStyleModel({ numFmt: '0.00' }, 2)).not.toBe(dateBefore);
    expect(styles.addStyleModel({ numFmt: '0.00' }, 2)).toBe(styles.addStyleModel({ numFmt: '0.00' }, 2));
    expect(styles.addStyleModel({ font: { bold: true } }, 3)).toBeGreaterThan(0); // anything richer: the writer's own lookup
  });
});
