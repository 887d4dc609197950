// Writes, as JSON to <out>, every module a compiled module loads when imported: the ES modules (through a
// resolve hook) and the CommonJS ones (the require cache). `node tests/helpers/loaded-modules.mjs <file> <out>`;
// tests/integration/loaded-modules.test.ts reads it.
import { writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';

const { port1, port2 } = new MessageChannel();
const esm = new Set();
port1.on('message', (url) => esm.add(url));
register('./loaded-modules-hooks.mjs', { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] });
await import(pathToFileURL(process.argv[2]).href);
// the hook thread's last messages
await new Promise((r) => setTimeout(r, 200));
port1.close();
const cjs = Object.keys(createRequire(import.meta.url).cache);
writeFileSync(process.argv[3], JSON.stringify({ esm: [...esm], cjs }));
process.exit(0);
