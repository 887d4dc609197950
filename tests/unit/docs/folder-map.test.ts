// @vitest-environment node
// The newcomer's map in docs/development.md names every place a newcomer looks for: each folder of
// src/app, src/server and their feature and module folders, each server library and database
// file, and each file of bin/. A folder or file added without a line in the map fails here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const doc = readFileSync(join(ROOT, 'docs/development.md'), 'utf8');
/** The map: the fenced block that starts with `src/shared/`. */
const map = (doc.match(/^```\n(src\/shared\/[\s\S]*?)^```/m) ?? [])[1] ?? '';

const entries = (dir: string, kind: 'dir' | 'file') =>
  readdirSync(join(ROOT, dir))
    .filter((name) => !name.startsWith('.'))
    .filter((name) => statSync(join(ROOT, dir, name)).isDirectory() === (kind === 'dir'));
const stem = (file: string) => file.replace(/\.(d\.mts|mts|mjs|ts|tsx)$/, '');

/** Where to look, and what of it the map must name. */
const places: [string, 'dir' | 'file'][] = [
  ['src/app', 'dir'],
  ['src/app/features', 'dir'],
  ['src/server', 'dir'],
  ['src/server/modules', 'dir'],
  ['src/server/lib', 'file'],
  ['src/server/db', 'file'],
  ['bin', 'file'],
];

describe('the folder map in docs/development.md', () => {
  it('is there', () => {
    expect(map.length).toBeGreaterThan(1000);
  });
  for (const [dir, kind] of places)
    it(`names every ${kind === 'dir' ? 'folder' : 'file'} of ${dir}/`, () => {
      const names = [...new Set(entries(dir, kind).map(stem))].filter((n) => n !== 'server-build.d');
      // Named as an entry: followed by its extension, `/`, `,`, `:` or `)`, not only as a word in a sentence.
      const missing = names.filter((n) => !new RegExp(`(^|[\\s(/])${n.replace(/[.-]/g, '\\$&')}(\\.\\w+|[/,:)])`, 'm').test(map));
      expect(missing).toEqual([]);
    });
});
