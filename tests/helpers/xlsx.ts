// Reads an .xlsx file the way a spreadsheet program does: the whole file, through the zip's central
// directory (read-excel-file's universal reader, on fflate). Its Node reader unzips as a stream
// instead, finding the end of each entry by the data-descriptor signature (PK\x07\x08) that a
// streamed zip writes after it; when those four bytes happen to occur inside an entry's compressed
// data, that reader cuts the entry short and fails with "unexpected end of file" on a file that
// Excel, LibreOffice and `unzip -t` read whole. The server streams its exports, so every test
// reads them here.
import { readFile } from 'node:fs/promises';
import readXlsxFile from 'read-excel-file/universal';

type Input = string | Uint8Array | ArrayBuffer | Blob;

async function bytesOf(input: Input): Promise<ArrayBuffer> {
  if (typeof input === 'string') return new Uint8Array(await readFile(input)).buffer;
  if (input instanceof Blob) return input.arrayBuffer();
  if (input instanceof ArrayBuffer) return input;
  return new Uint8Array(input).buffer; // a copy: a Buffer's own ArrayBuffer may be a shared pool
}

/** The sheets of an .xlsx file (a path, its bytes or a Blob), each with its rows as `data`. */
export async function readXlsx(input: Input) {
  return readXlsxFile(await bytesOf(input));
}
