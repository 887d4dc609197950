// Every module's exports and imports, registered with the export pool (exports/registry.ts). The
// app assembly imports this file, and so does each pool thread (./export-worker.ts): a thread has
// its own module instances, so it registers the definitions itself.
import './admin/exports.js';
import './alarm-reports/exports.js';
import './customers/exports.js';
import './devices/exports.js';
import './fleet/exports.js';
import './live/exports.js';

/** The pool threads' module (a file URL): compiled JavaScript in dist/server, else the TypeScript source (loaded through tsx). */
export const EXPORT_WORKER_FILE = new URL(import.meta.url.endsWith('.js') ? './export-worker.js' : './export-worker.ts', import.meta.url).href;
