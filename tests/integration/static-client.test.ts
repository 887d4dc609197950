// The built client as the browser gets it: each asset in the encoding the request accepts (the
// brotli or gzip file the build wrote beside it, else the file itself), `Vary: Accept-Encoding`,
// a year of caching for content-hashed files and revalidation (ETag, 304) for index.html and
// anything else. Both the server from the sources (createServer) and the compiled server that
// `npm start` runs (dist/server, with CLIENT_DIR) serve a client folder laid out as the build lays it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { createServer, type AppServer } from '../../src/server/server.js';
import { testConfig } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { serverEnv, startServerProcess, tempDataDir, type ServerProcess } from '../helpers/process.js';

const SCRIPT = 'assets/index-Ab3_x-9Z.js';
const STYLE = 'assets/index-Qw12Er34.css';
const UNHASHED = 'assets/notes.txt';

/** A client folder as `vite build` leaves it: hashed assets with their .br and .gz files, index.html. */
function makeClient() {
  const dir = mkdtempSync(join(tmpdir(), 'client-'));
  mkdirSync(join(dir, 'assets'));
  const files: Record<string, string> = {
    'index.html': `<!doctype html><title>Workspace test shell</title><script type="module" src="/${SCRIPT}"></script>${'<!-- pad -->'.repeat(200)}`,
    [SCRIPT]: `export const rows = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `device ${i}` })))};\n`,
    [STYLE]: `.rt-Button { color: red; }\n`.repeat(400),
    [UNHASHED]: 'plain notes, never compressed\n',
  };
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, name), text);
    if (name === UNHASHED) continue;
    writeFileSync(join(dir, `${name}.br`), brotliCompressSync(text));
    writeFileSync(join(dir, `${name}.gz`), gzipSync(text));
  }
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };
/** A GET whose body is read as it came over the wire (fetch would decompress it). */
function rawGet(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const clientDir = makeClient();
const original = (name: string) => readFileSync(join(clientDir, name));

/** The same checks against either server. */
function staticClientTests(base: () => string) {
  test('a gzip answer decompresses to the file byte for byte', async () => {
    for (const name of [SCRIPT, STYLE]) {
      const res = await rawGet(base(), `/${name}`, { 'accept-encoding': 'gzip' });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(res.body.length).toBeLessThan(original(name).length);
      expect(gunzipSync(res.body).equals(original(name))).toBe(true);
    }
  });

  test('a brotli answer decompresses to the file byte for byte, and brotli is preferred', async () => {
    for (const accept of ['gzip, deflate, br', 'br', 'br;q=1, gzip;q=1', 'gzip;q=0.5, br;q=0.9']) {
      const res = await rawGet(base(), `/${SCRIPT}`, { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBe('br');
      expect(brotliDecompressSync(res.body).equals(original(SCRIPT)), accept).toBe(true);
    }
    // A weight below gzip's picks gzip.
    const gz = await rawGet(base(), `/${SCRIPT}`, { 'accept-encoding': 'br;q=0.2, gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
  });

  test('an unknown encoding, none, or br and gzip refused with q=0 get the file itself', async () => {
    const cases: Record<string, string>[] = [
      { 'accept-encoding': 'compress' },
      {},
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
      { 'accept-encoding': 'identity' },
    ];
    for (const headers of cases) {
      const res = await rawGet(base(), `/${SCRIPT}`, headers);
      const what = JSON.stringify(headers);
      expect(res.status, what).toBe(200);
      expect(res.headers['content-encoding'], what).toBeUndefined();
      expect(res.headers.vary, what).toBe('Accept-Encoding');
      expect(res.body.equals(original(SCRIPT)), what).toBe(true);
      expect(res.headers['content-type'], what).toMatch(/javascript/);
    }
    const css = await rawGet(base(), `/${STYLE}`, { 'accept-encoding': 'br;q=0, gzip' });
    expect(css.headers['content-encoding']).toBe('gzip');
    expect(css.headers['content-type']).toMatch(/text\/css/);
  });

  test('a hashed file is cached for a year and immutable; one without a hash is revalidated', async () => {
    for (const name of [SCRIPT, STYLE]) {
      const res = await rawGet(base(), `/${name}`, { 'accept-encoding': 'br' });
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const plain = await rawGet(base(), `/${UNHASHED}`, { 'accept-encoding': 'br, gzip' });
    expect(plain.status).toBe(200);
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBeUndefined();
    expect(plain.body.equals(original(UNHASHED))).toBe(true);
    const icon = await rawGet(base(), '/favicon.svg');
    expect(icon.headers['cache-control']).toBe('no-cache');
    expect(icon.headers['content-type']).toMatch(/image\/svg\+xml/);
  });

  test('index.html is compressed too, never cached without asking, and a revisit with its ETag is a 304', async () => {
    const res = await rawGet(base(), '/persons/some-id', { accept: 'text/html', 'accept-encoding': 'gzip, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(brotliDecompressSync(res.body).equals(original('index.html'))).toBe(true);
    const etag = String(res.headers.etag);
    const again = await rawGet(base(), '/', { accept: 'text/html', 'accept-encoding': 'gzip, br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const identity = await rawGet(base(), '/', { accept: 'text/html' });
    expect(identity.body.equals(original('index.html'))).toBe(true);
  });

  test('an asset revisited with its ETag is a 304 without a body; a HEAD has the length and no body', async () => {
    const first = await rawGet(base(), `/${SCRIPT}`, { 'accept-encoding': 'gzip' });
    const again = await rawGet(base(), `/${SCRIPT}`, { 'accept-encoding': 'gzip', 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // The ETag names the encoding: the brotli answer is another representation.
    const br = await rawGet(base(), `/${SCRIPT}`, { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) });
    expect(br.status).toBe(200);
    const head = await rawGet(base(), `/${SCRIPT}`, { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(first.body.length);
    expect(head.body.length).toBe(0);
  });

  test('the compressed files are not addressable by name, and paths cannot leave the folder', async () => {
    for (const path of [`/${SCRIPT}.br`, `/${SCRIPT}.gz`, '/assets/..%2Findex.html', '/assets/%2e%2e/index.html', '/assets/missing-Ab3_x-9Z.js']) {
      const res = await rawGet(base(), path, { 'accept-encoding': 'br' });
      expect(res.status, path).toBe(404);
    }
  });
}

describe('the server from the sources', () => {
  let tdb: TestDb;
  let srv: AppServer;
  beforeAll(async () => {
    tdb = await createTestDb();
    const config = testConfig();
    const log = () => {};
    srv = await createServer(
      { db: tdb.db, config, outbox: createOutbox({ log, now: () => config.now() }), log },
      { port: 0, hostname: '127.0.0.1', clientDir },
    );
  });
  afterAll(async () => {
    await srv?.close();
    await tdb?.close();
  });
  staticClientTests(() => `http://127.0.0.1:${srv.port}`);
});

// The compiled server is started on SQLite only (its database is not what is tested here).
describe.skipIf(process.env.TEST_DB === 'pg')('the compiled server (npm start)', () => {
  const dir = tempDataDir('static-client');
  let srv: ServerProcess | undefined;
  beforeAll(async () => {
    srv = await startServerProcess(['bin/start.mjs'], serverEnv(dir, { CLIENT_DIR: clientDir, SIMULATOR: 'off', LOG_REQUESTS: 'false' }));
  }, 180_000);
  afterAll(async () => {
    if (srv && srv.child.exitCode === null) {
      srv.child.kill('SIGTERM');
      await srv.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });
  test('it is the compiled build that runs', () => {
    expect(srv!.output()).toMatch(/Started in \d+ ms \(compiled JavaScript\)/);
  });
  staticClientTests(() => srv!.url);
});

afterAll(() => rmSync(clientDir, { recursive: true, force: true }));
