// The tests' .xlsx reader (tests/helpers/xlsx.ts) reads a streamed zip whose data holds the
// data-descriptor signature, which read-excel-file's streaming Node reader cuts short.
import { describe, expect, test } from 'vitest';
import { unzipSync, Zip, ZipPassThrough } from 'fflate';
import ExcelJS from '@zurmokeeper/exceljs';
import readXlsxStreaming from 'read-excel-file/node';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readXlsx } from '../../helpers/xlsx.js';

/** A small workbook, zipped again as a stream writes it (sizes after each entry) with an extra entry holding PK\x07\x08. */
async function streamedXlsxWithSignatureInData(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Devices');
  ws.addRow(['Serial Number', 'Status']);
  for (let i = 0; i < 20; i++) ws.addRow([`T400-${String(i).padStart(4, '0')}`, 'In stock']);
  const entries = unzipSync(new Uint8Array(await wb.xlsx.writeBuffer()));
  entries['xl/media/image1.bin'] = new Uint8Array([1, 2, 0x50, 0x4b, 0x07, 0x08, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
  const parts: Uint8Array[] = [];
  const zip = new Zip((err, chunk) => {
    if (err) throw err;
    parts.push(chunk);
  });
  for (const [name, data] of Object.entries(entries)) {
    const file = new ZipPassThrough(name);
    zip.add(file);
    file.push(data, true);
  }
  zip.end();
  return Buffer.concat(parts);
}

describe('readXlsx', () => {
  test('reads every row of a streamed zip with the data-descriptor signature inside an entry, where the streaming reader fails', async () => {
    const bytes = await streamedXlsxWithSignatureInData();
    await expect(readXlsxStreaming(bytes)).rejects.toThrow();
    const [sheet] = await readXlsx(bytes);
    expect(sheet!.data.length).toBe(21);
    expect(sheet!.data[20]).toEqual(['T400-0019', 'In stock']);
  });

  test('reads a path, bytes and a Blob alike', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('S').addRow(['a', 1]);
    const bytes = Buffer.from(await wb.xlsx.writeBuffer());
    const fromBytes = await readXlsx(bytes);
    expect(fromBytes[0]!.data).toEqual([['a', 1]]);
    expect((await readXlsx(new Blob([bytes])))[0]!.data).toEqual([['a', 1]]);
    const dir = mkdtempSync(join(tmpdir(), 'xlsx-reader-'));
    try {
      writeFileSync(join(dir, 'file.xlsx'), bytes);
      expect((await readXlsx(join(dir, 'file.xlsx')))[0]!.data).toEqual([['a', 1]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
