// The imports' CSV parsers read a chunk of text at a time (src/server/exports/csv-chunks.ts): while a
// file is parsed they report the rows read so far, growing, of an estimate close to the file's rows;
// a row split between two chunks (a quoted cell with a line break) is read whole; the answers
// (rows, refusals and their order) are the file's as a whole.
import { describe, expect, it } from 'vitest';
import { parseDeviceImport } from '../../../src/server/modules/devices/import-csv.js';
import { parseSerialsImport } from '../../../src/server/modules/customers/import-csv.js';
import { CSV_CHUNK_CHARS } from '../../../src/server/exports/csv-chunks.js';
import { MSG } from '../../../src/shared/messages.js';
import { DEVICE_TEXT, IMPORT_MAX_ROWS } from '../../../src/shared/schemas/devices.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const N = 20_000;
const deviceFile = (n: number) =>
  `SerialNumber;Type;PhoneNumber;Supplier\n${Array.from({ length: n }, (_, i) => `PARSE${String(i).padStart(6, '0')};620;07700 900${String(i % 1000).padStart(3, '0')};Supplier Ltd`).join('\n')}\n`;

describe('import parsing progress', () => {
  it('reports rows read so far, growing, of an estimate near the file’s rows, before the answer', () => {
    const text = deviceFile(N);
    expect(text.length).toBeGreaterThan(10 * CSV_CHUNK_CHARS); // many chunks
    const seen: [number, number][] = [];
    const r = parseDeviceImport(bytes(text), (rows, estimate) => seen.push([rows, estimate]));
    expect(r.ok && r.rows.length).toBe(N);
    expect(seen.length).toBeGreaterThan(10);
    const rows = seen.map(([n]) => n);
    expect(rows).toEqual([...rows].sort((a, b) => a - b));
    expect(new Set(rows).size).toBe(rows.length); // every report moves
    expect(rows[0]).toBeGreaterThan(0);
    expect(rows[0]).toBeLessThan(N / 5);
    // Already in the first reports the estimate is within a few percent of the file's rows.
    for (const [, estimate] of seen) expect(Math.abs(estimate - N) / N).toBeLessThan(0.05);
    expect(seen.at(-1)).toEqual([N, N]);
    // 20,000 rows, each phone number checked: about 5 s of CPU, three times that on a busy machine.
  }, 60_000);

  it('a quoted cell with a line break across a chunk edge is one row; answers match the whole file', () => {
    // The quoted supplier (a line break in it) spans the first chunk's end.
    const head = 'SerialNumber,Type,Supplier\n';
    const line = (i: number) => `FILL${String(i).padStart(5, '0')},620,Plain\n`; // 20 characters
    const fill = Math.floor((CSV_CHUNK_CHARS - head.length - 20) / 20);
    const text = `${head}${Array.from({ length: fill }, (_, i) => line(i)).join('')}SPLIT-1,620,"Line one\nline two, still the supplier"\nAFTER-1,620,Plain\n`;
    const at = text.indexOf('"Line one');
    expect(at).toBeLessThan(CSV_CHUNK_CHARS);
    expect(text.indexOf('supplier"')).toBeGreaterThan(CSV_CHUNK_CHARS);
    const seen: number[] = [];
    const r = parseDeviceImport(bytes(text), (n) => seen.push(n));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const split = r.rows.find((d) => d.serialNumber === 'SPLIT-1');
    expect(split?.supplier).toBe('Line one\nline two, still the supplier');
    expect(r.rows.at(-1)?.serialNumber).toBe('AFTER-1');
    expect(r.rows.length).toBe(fill + 2);
    expect(seen.length).toBeGreaterThan(1);
  });

  it('refusals keep their order: a CSV error anywhere, missing columns, too many rows, then the rows’ problems', () => {
    const many = `SerialNumber,Type\n${Array.from({ length: IMPORT_MAX_ROWS + 1 }, (_, i) => `M${i},620`).join('\n')}\n`;
    expect(parseDeviceImport(bytes(many))).toEqual({ ok: false, message: DEVICE_TEXT.tooManyRows });
    // An unclosed quote late in a long file still fails the whole file.
    expect(parseDeviceImport(bytes(`${deviceFile(5000)}BROKEN;620;"07700;x\n`))).toEqual({ ok: false, message: MSG.csvParseFailed });
    expect(parseDeviceImport(bytes('Serial,Type\nA,620\n'))).toEqual({ ok: false, message: MSG.csvMissingColumn('SerialNumber') });
    expect(parseDeviceImport(bytes(''))).toEqual({ ok: false, message: MSG.csvParseFailed });
    const bad = parseDeviceImport(bytes('SerialNumber,Type\nOK-1,620\nBAD-1,999\n'));
    expect(bad).toMatchObject({ ok: false, message: DEVICE_TEXT.importRow(3, DEVICE_TEXT.unknownType) });
  });

  it('the devices-to-allocate file reports the same way and answers its distinct serials in order', () => {
    const serials = Array.from({ length: N - 1 }, (_, i) => `ALLOC${String(i).padStart(6, '0')}`); // and one repeated: N rows
    const seen: number[] = [];
    const r = parseSerialsImport(bytes(`SerialNumber\n${serials.join('\n')}\n${serials[0]!.toLowerCase()}\n`), (n) => seen.push(n));
    expect(r).toEqual({ ok: true, rows: serials });
    expect(seen.length).toBeGreaterThan(3);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(parseSerialsImport(bytes(`SerialNumber\n${'X'.repeat(500)}\n`))).toEqual({ ok: false, message: DEVICE_TEXT.serialTooLong });
  });
});
