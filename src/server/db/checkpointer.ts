// WAL checkpoints off the request loop. SQLite's automatic checkpoint runs inside the commit that
// crosses 1,000 WAL pages: that commit copies the pages into the database file and syncs it, on
// the one thread that serves every request (measured: commits of a 500-message ingestion batch
// took 34 ms on average, 40 % of the batch). The server's connection switches the automatic
// checkpoint off and a worker thread with a connection of its own checkpoints (PASSIVE: it never
// blocks the writer or a reader). If the thread stops, the connection checkpoints itself again.
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import type SQLite from 'better-sqlite3';

export type Checkpointer = { stop(): Promise<void> };

const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;
/** Bytes a WAL file keeps once it is checkpointed and started again. */
const WAL_SIZE_LIMIT = 64 * 1024 * 1024;
/** WAL frames (pages) past which the writer checkpoints itself again: 256 MB of 4 KB pages. */
const BEHIND_FRAMES = 65_536;

/**
 * The thread's code: its own read-write connection, a PASSIVE checkpoint (it never waits for the
 * writer or a reader: it copies what it can and returns) every `intervalMs`, at once again while
 * frames remain. Plain JavaScript evaluated in the worker, so it runs the same under tsx and
 * compiled; better-sqlite3 is resolved here and passed in.
 */
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.sqlite);
const db = new SQLite(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
const step = db.prepare('pragma wal_checkpoint(PASSIVE)');
let timer;
let lastBehind = false;
const tick = () => {
  let left = 0;
  try {
    const r = step.get();
    left = r ? r.log - r.checkpointed : 0;
    // Far behind (writes faster than the file takes them): the writer checkpoints itself again
    // until this thread has caught up, so the WAL stays bounded.
    const behind = r ? r.log > workerData.behindFrames : false;
    if (behind !== lastBehind) parentPort.postMessage(behind ? 'behind' : 'caught-up');
    lastBehind = behind;
  } catch {
    // busy, or the file is being replaced: the next tick tries again
  }
  timer = setTimeout(tick, left > 0 ? 0 : workerData.intervalMs);
};
timer = setTimeout(tick, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearTimeout(timer);
  try { step.get(); } catch {}
  db.close();
  parentPort.postMessage('stopped');
});
`;

export function startCheckpointer(raw: SQLite.Database, file: string, intervalMs = 200): Checkpointer {
  const worker = new Worker(WORKER_CODE, {
    eval: true,
    workerData: { file, intervalMs, behindFrames: BEHIND_FRAMES, sqlite: createRequire(import.meta.url).resolve('better-sqlite3') },
  });
  worker.unref();
  raw.pragma('wal_autocheckpoint = 0');
  // After a checkpoint the WAL starts again from its beginning, but its file keeps its largest size.
  raw.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  let running = true;
  const fallBack = () => {
    if (!running) return;
    running = false;
    if (raw.open) raw.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
  };
  worker.on('message', (m) => {
    if (running && raw.open && (m === 'behind' || m === 'caught-up')) raw.pragma(`wal_autocheckpoint = ${m === 'behind' ? SQLITE_DEFAULT_AUTOCHECKPOINT : 0}`);
  });
  worker.on('error', fallBack);
  worker.on('exit', fallBack);
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        if (!running) return resolve();
        running = false;
        const done = () => {
          clearTimeout(force);
          void worker.terminate().then(() => resolve());
        };
        const force = setTimeout(done, 2000);
        worker.once('message', done);
        worker.once('exit', done);
        worker.postMessage('stop');
      }),
  };
}
