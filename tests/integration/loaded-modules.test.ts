// What the compiled server loads when it starts, and what an export thread loads: the parts of the
// big libraries they use, not the whole packages. The spreadsheet library's index (its readers,
// CSV and in-memory workbook with their dependencies) is 8.7 MB of heap where its streaming writer
// takes 3.4 MB, date-fns's index loads every function of the package (2 MB) where the server uses
// three, and the PostgreSQL driver is of no use on SQLite: each thread that loaded them kept them
// for its life.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { expect, test } from 'vitest';

/** The modules a compiled module loads: ES module URLs and CommonJS file paths (tests/helpers/loaded-modules.mjs). */
function loadedBy(file: string): string[] {
  const out = join(tmpdir(), `loaded-modules-${process.pid}-${Date.now()}.json`);
  try {
    const r = spawnSync(process.execPath, ['tests/helpers/loaded-modules.mjs', file, out], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(readFileSync(out, 'utf8')) as { esm: string[]; cjs: string[] };
    return [...j.esm, ...j.cjs];
  } finally {
    rmSync(out, { force: true });
  }
}

const SPREADSHEET_INDEX = /@zurmokeeper\/exceljs\/(excel\.js|lib\/exceljs\.nodejs\.js)$/;
const SPREADSHEET_WRITER = /@zurmokeeper\/exceljs\/lib\/stream\/xlsx\/workbook-writer\.js$/;
const DATE_FNS_INDEX = /\/date-fns\/index\.(c?js|mjs)$/;
const PG_DRIVER = /\/node_modules\/pg\//;

// The build's contents, the same whatever the database: run once, in the SQLite step.
const onSqlite = test.skipIf(process.env.TEST_DB === 'pg');

onSqlite('the server starts without the spreadsheet library, the date-fns index or the PostgreSQL driver', () => {
  const mods = loadedBy('dist/server/server/app.js');
  // the server's own modules were loaded: the list is not empty by mistake
  expect(mods.some((m) => m.endsWith('/dist/server/server/exports/pool.js'))).toBe(true);
  expect(mods.filter((m) => /@zurmokeeper\/exceljs\//.test(m))).toEqual([]);
  expect(mods.filter((m) => DATE_FNS_INDEX.test(m))).toEqual([]);
  expect(mods.some((m) => m.endsWith('/date-fns/format.js'))).toBe(true);
  expect(mods.filter((m) => PG_DRIVER.test(m))).toEqual([]);
});

onSqlite("an export thread loads the spreadsheet library's streaming writer, not its index, nor the date-fns index or the PostgreSQL driver", () => {
  const mods = loadedBy('dist/server/server/exports/worker.js');
  expect(mods.filter((m) => SPREADSHEET_WRITER.test(m))).toHaveLength(1);
  expect(mods.filter((m) => SPREADSHEET_INDEX.test(m))).toEqual([]);
  expect(mods.filter((m) => DATE_FNS_INDEX.test(m))).toEqual([]);
  expect(mods.filter((m) => PG_DRIVER.test(m))).toEqual([]);
});
