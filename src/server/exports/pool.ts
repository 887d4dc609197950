// The export pool: every export (devices, a customer's devices, devices by ids, customers, alarm
// reports) runs on a piscina worker thread with its own read-only database connection; the request
// loop only validates, authorises, queues and streams the bytes the worker posts. Bounded and fair:
// one export per user at a time (queued or running), at most `maxQueue` waiting for a thread,
// both refused with 429 in the API's error shape. Each export is a job with an id its owner can
// poll for progress (rows written of total) and cancel.
//
// Without a database source (an in-memory SQLite test database, which another thread cannot open)
// the same task runs in this thread over the same port protocol.
//
// With Redis (several nodes) the jobs are shared by the nodes (cluster.ts): the limits hold across
// them, and progress and Cancel answer on any node. A failing thread fails its job only (threads.ts).
import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { randomUUID } from 'node:crypto';
import type { DB, DbSource } from '../db/index.js';
import { ApiError } from '../http/api.js';
import { CODE, MSG } from '../../shared/messages.js';
import { EXPORT_ROW_CAP } from '../../shared/export-format.js';
import type { ControlMessage, ExportJob, TaskMessage, TaskResult } from './task.js';
import type { ExportProgress } from '../../shared/schemas/exports.js';
import type { WorkerInput } from './worker.js';
import type { ImportInput, ImportJob, ImportParseMessage, ImportParsed, ImportRows } from './import-task.js';
import type { ImportWriteControl, ImportWriteMessage, ImportWriteRequest, ImportWriteResult } from './import-write.js';
import type { ImportWriteInput } from './worker.js';
import { WorkerFailed, workerThreads } from './threads.js';
import { createJobRegistry, progressOf, type SharedJob } from './cluster.js';
import type { Redis } from 'ioredis';
import type { Bus } from '../platform/redis.js';

export type ExportPoolOptions = {
  db: DB;
  source?: DbSource;
  /** worker threads (EXPORT_WORKERS); default: one less than the cores, at least 1 */
  size?: number;
  /** exports that may wait for a thread before more are refused (EXPORT_QUEUE); default 8 */
  maxQueue?: number;
  /** rows per export (default EXPORT_ROW_CAP) */
  cap?: number;
  /** rows an import writes (or looks up) between two progress steps (default 500) */
  importStep?: number;
  /**
   * the worker threads' module (a file URL): one that registers the export and import definitions
   * and re-exports worker.ts's tasks (the app assembly's modules/export-worker.ts; tests point it
   * elsewhere to make a worker fail). Needed with `source`.
   */
  workerFile?: string;
  /**
   * Several nodes (REDIS_URL): the Redis command connection and the bus over Redis. With both, jobs
   * are shared by the nodes (cluster.ts): one export and one import per user and the export queue
   * limit across nodes, progress and Cancel on any node. Without them, jobs live in this process.
   */
  redis?: Redis;
  bus?: Bus;
  log: (e: Record<string, unknown>) => void;
};

/** `parsed`: an import whose file is being parsed: rows parsed so far of an estimate. */
type Job = SharedJob & { cancel: () => void };

export type StartedExport = { id: string; total: number; omitted: number; body: ReadableStream<Uint8Array> };

/** The owner cancelled the import (DELETE): whatever it was doing stops, and its transaction rolls back. */
export class ImportCancelled extends Error {
  constructor() {
    super('import cancelled');
  }
}

/**
 * A running import as its route drives it: `counted` once the file is parsed (the rows to handle),
 * `step` after each `size` rows written or looked up (it throws ImportCancelled once the owner has
 * cancelled, and lets the event loop turn), `end` when the answer is ready or the import failed.
 */
export type ImportJobHandle = {
  id: string;
  /** rows per step */
  size: number;
  /** aborted when the owner cancels */
  signal: AbortSignal;
  /** rows of the file parsed so far, of an estimate (while it is parsed) */
  parsed(rows: number, estimate: number): void;
  counted(total: number): void;
  /** rows handled so far, as an import thread reports them */
  handled(done: number): void;
  step(done: number): Promise<void>;
  end(ok: boolean): void;
};

/** How long a download may take no bytes before its export is cancelled. */
const STALL_MS = 60_000;
/** How long a finished job's progress stays readable. */
const KEEP_FINISHED_MS = 60_000;
/**
 * An export worker's heap is small by design (one keyset page and the writer's buffers), but
 * without a limit V8 sizes a busy thread's heap from the machine's memory and keeps what it grew:
 * four exports in a row left the process 650 MB larger. A bounded old generation makes the
 * collector work instead, and memory stays flat whatever the export's size.
 */
const EXPORT_WORKER_LIMITS = { maxOldGenerationSizeMb: 128 };

export const defaultPoolSize = () => Math.max(1, availableParallelism() - 1);

export function createExportPool(o: ExportPoolOptions) {
  const size = o.size ?? defaultPoolSize();
  const maxQueue = o.maxQueue ?? 8;
  const cap = o.cap ?? EXPORT_ROW_CAP;
  // Compiled JavaScript (dist/server) loads the worker file as it is; from the TypeScript sources
  // the threads load it through tsx's loader, as this process does (tests run without it on the
  // command line).
  const compiled = import.meta.url.endsWith('.js');
  const workerFile = o.workerFile;
  if (o.source && !workerFile) throw new Error("createExportPool: a database source needs the worker threads' module (workerFile)");
  const execArgv = compiled || process.execArgv.some((a) => a.includes('tsx')) ? process.execArgv : [...process.execArgv, '--import', 'tsx'];
  const piscina = o.source
    ? workerThreads<WorkerInput, TaskResult>(
        'export',
        {
          filename: workerFile,
          minThreads: 0,
          maxThreads: size,
          idleTimeout: 30_000,
          atomics: 'disabled',
          resourceLimits: EXPORT_WORKER_LIMITS,
          execArgv,
        },
        o.log,
      )
    : undefined;
  // Imports have threads of their own (same worker file, the named tasks parseImport and
  // writeImport): an upload is parsed and written at once, never queued behind a long export.
  const importPiscina = o.source
    ? workerThreads<ImportInput | ImportWriteInput, unknown>(
        'import',
        {
          filename: workerFile,
          name: 'parseImport',
          minThreads: 0,
          maxThreads: size,
          idleTimeout: 30_000,
          atomics: 'disabled',
          execArgv,
        },
        o.log,
      )
    : undefined;
  const jobs = new Map<string, Job>();
  /** A new job: the requested id unless another job has it, nothing counted yet. */
  const newJob = (userId: string, requestedId: string | undefined, kind: Job['kind'], state: Job['state'], cancel: () => void): Job => ({
    id: requestedId && !jobs.has(requestedId) ? requestedId : randomUUID(),
    userId,
    kind,
    state,
    total: null,
    written: 0,
    omitted: 0,
    parsed: null,
    cancel,
  });
  const active = new Map<string, Job>(); // user id → their queued or running export
  const pending = new Set<Promise<unknown>>();
  let accepting = true;

  const queued = () => [...active.values()].filter((j) => j.state === 'queued').length;
  const cluster = o.redis && o.bus ? createJobRegistry({ redis: o.redis, bus: o.bus, node: randomUUID(), log: o.log }) : undefined;
  // another node cancelled one of this node's jobs
  cluster?.onCancel((id, userId) => {
    const j = jobs.get(id);
    if (j && j.userId === userId) j.cancel();
  });

  /**
   * Admits a job across the nodes (with Redis), or throws the refusal; the job's id changes when the
   * one asked for is another job's. `maxQueued`: the queue limit, for a job that will wait for a
   * thread of this node. Redis away: the node decides alone (`localFull`).
   */
  async function admitShared(rec: Job, maxQueued: number | null, localFull: boolean): Promise<void> {
    if (!cluster) return;
    let r = await cluster.admit(rec, maxQueued);
    if (r === 'taken') {
      jobs.delete(rec.id);
      rec.id = randomUUID();
      jobs.set(rec.id, rec);
      r = await cluster.admit(rec, maxQueued);
    }
    if (r === 'unavailable' && !localFull) cluster.track(rec);
    if (r === 'ok' || (r === 'unavailable' && !localFull)) return;
    if (rec.kind === 'import')
      throw r === 'busy' ? new ApiError(429, MSG.importAlreadyRunning, CODE.importBusy) : new ApiError(429, MSG.importQueueFull, CODE.importQueueFull);
    throw r === 'busy' ? new ApiError(429, MSG.exportAlreadyRunning, CODE.exportBusy) : new ApiError(429, MSG.exportQueueFull, CODE.exportQueueFull);
  }

  function runTask(id: string, job: ExportJob, port: MessagePort): Promise<TaskResult> {
    if (piscina) return piscina.run({ source: o.source!, job, port, cap }, { transferList: [port] as never, job: id });
    // In this thread (no source to open): same task, same protocol.
    return import('./task.js').then(({ exportTask }) => exportTask(o.db, job, port, cap));
  }

  /**
   * Queues an export for a user and resolves once its worker has counted the rows: the total, and a
   * body that streams the file as it is written (cancelling the body cancels the export). A total
   * of 0 has an empty body. Refuses (429) a second export of the same user and a full queue.
   */
  async function start(userId: string, job: ExportJob, requestedId?: string): Promise<StartedExport> {
    if (!accepting) throw new ApiError(503, MSG.exportQueueFull, CODE.exportQueueFull);
    if (active.has(userId)) throw new ApiError(429, MSG.exportAlreadyRunning, CODE.exportBusy);
    const localFull = queued() >= maxQueue;
    if (localFull && !cluster) throw new ApiError(429, MSG.exportQueueFull, CODE.exportQueueFull);
    const { port1, port2 } = new MessageChannel();
    const chunks: Uint8Array[] = [];
    let ended = false;
    let failure: Error | undefined;
    let notify: (() => void) | undefined;
    let startedResolve!: (total: number) => void;
    let startedReject!: (e: Error) => void;
    const started = new Promise<number>((res, rej) => ((startedResolve = res), (startedReject = rej)));
    const rec: Job = newJob(userId, requestedId, 'export', 'queued', () => {
      if (rec.state !== 'queued' && rec.state !== 'running') return;
      rec.state = 'cancelled';
      // The user may start another export at once: this one's thread stops on its own.
      if (active.get(userId) === rec) active.delete(userId);
      cluster?.changed(rec, true);
      cluster?.release(rec);
      port1.postMessage({ type: 'cancel' } satisfies ControlMessage);
      ended = true;
      notify?.();
    });
    jobs.set(rec.id, rec);
    active.set(userId, rec);
    try {
      // across the nodes: one export per user, and at most maxQueue exports waiting for a thread
      // (this one waits when this node's threads are all busy)
      await admitShared(rec, pending.size >= size ? maxQueue : null, localFull);
    } catch (e) {
      jobs.delete(rec.id);
      if (active.get(userId) === rec) active.delete(userId);
      port1.close();
      throw e;
    }
    const id = rec.id;

    port1.on('message', (m: TaskMessage) => {
      // 'queued' is only the wait for a thread: once one takes the export it runs (counting first).
      if (m.type === 'begin') {
        if (rec.state === 'queued') rec.state = 'running';
        cluster?.changed(rec, true);
      } else if (m.type === 'start') {
        rec.total = m.total;
        rec.omitted = Math.max(0, m.total - cap);
        if (rec.state === 'queued') rec.state = 'running';
        cluster?.changed(rec, true);
        startedResolve(m.total);
      } else if (m.type === 'data') chunks.push(m.chunk);
      else if (m.type === 'progress') {
        rec.written = m.written;
        cluster?.changed(rec);
      } else if (m.type === 'end') {
        rec.written = m.written;
        rec.omitted = m.omitted;
        if (rec.state === 'running') rec.state = m.cancelled ? 'cancelled' : 'done';
        // The file is complete: the user may start another export while the thread finishes up.
        if (active.get(userId) === rec) active.delete(userId);
        cluster?.changed(rec, true);
        cluster?.release(rec);
        ended = true;
        port1.close();
      }
      notify?.();
    });

    const task = runTask(id, job, port2)
      .catch((e: unknown) => {
        failure = e instanceof Error ? e : new Error(String(e));
        if (rec.state !== 'cancelled') rec.state = 'failed';
        o.log({ msg: 'export failed', job: id, kind: job.kind, error: String(failure.stack ?? failure) });
        startedReject(failure);
        notify?.();
      })
      .finally(() => {
        if (failure) port1.close();
        if (active.get(userId) === rec) active.delete(userId);
        if (rec.state === 'queued' || rec.state === 'running') rec.state = failure ? 'failed' : 'done';
        cluster?.finished(rec, KEEP_FINISHED_MS);
        setTimeout(() => jobs.delete(id), KEEP_FINISHED_MS).unref();
        pending.delete(task);
      });
    pending.add(task);

    const total = await started;
    // A download nobody reads would hold a worker: cancelled after STALL_MS without taking bytes.
    const stalled = setTimeout(() => rec.cancel(), STALL_MS);
    stalled.unref();
    void task.finally(() => clearTimeout(stalled));
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(ctrl) {
          while (!chunks.length && !ended && !failure) await new Promise<void>((r) => (notify = r));
          const chunk = chunks.shift();
          if (chunk) {
            ctrl.enqueue(chunk);
            port1.postMessage({ type: 'ack', bytes: chunk.byteLength } satisfies ControlMessage);
            stalled.refresh();
          } else if (failure) ctrl.error(failure);
          // A cancelled file is incomplete: the download breaks off instead of ending as if whole.
          else if (rec.state === 'cancelled') ctrl.error(new Error('export cancelled'));
          else ctrl.close();
        },
        cancel() {
          rec.cancel();
        },
      },
      { highWaterMark: 0 },
    );
    return { id, total, omitted: rec.omitted, body };
  }

  let importsParsing = 0;
  const importsActive = new Map<string, Job>(); // user id → their running import
  const importStep = o.importStep ?? 500;
  /**
   * Starts an import job for a user (before the upload is read): its id (the one asked for when
   * free), its progress and its cancellation. Refuses (429) a second import of the same user and
   * more imports than the import threads and the queue hold.
   */
  async function beginImport(userId: string, requestedId?: string): Promise<ImportJobHandle> {
    if (!accepting) throw new ApiError(503, MSG.importQueueFull, CODE.importQueueFull);
    if (importsActive.has(userId)) throw new ApiError(429, MSG.importAlreadyRunning, CODE.importBusy);
    if (importsActive.size >= size + maxQueue) throw new ApiError(429, MSG.importQueueFull, CODE.importQueueFull);
    const ac = new AbortController();
    const rec: Job = newJob(userId, requestedId, 'import', 'running', () => {
      if (rec.state !== 'running') return;
      rec.state = 'cancelled';
      cluster?.changed(rec, true);
      ac.abort(new ImportCancelled());
    });
    jobs.set(rec.id, rec);
    importsActive.set(userId, rec);
    try {
      // one import per user across the nodes; the import threads and their queue are this node's
      await admitShared(rec, null, false);
    } catch (e) {
      jobs.delete(rec.id);
      if (importsActive.get(userId) === rec) importsActive.delete(userId);
      throw e;
    }
    const id = rec.id;
    let ended = false;
    return {
      id,
      size: importStep,
      signal: ac.signal,
      parsed(rows, estimate) {
        // (a last message may arrive after the parse's answer: the count is final then)
        if (rec.total === null && rec.state === 'running') rec.parsed = { rows, estimate };
        cluster?.changed(rec);
      },
      counted(total) {
        rec.total = total;
        cluster?.changed(rec);
      },
      handled(done) {
        if (rec.state === 'running') rec.written = done;
        cluster?.changed(rec);
      },
      async step(done) {
        if (ac.signal.aborted) throw new ImportCancelled();
        rec.written = done;
        cluster?.changed(rec);
        // Let the event loop turn: progress is read and a cancel arrives between steps.
        await new Promise((r) => setImmediate(r));
        if (ac.signal.aborted) throw new ImportCancelled();
      },
      end(ok) {
        if (ended) return;
        ended = true;
        if (rec.state === 'running') rec.state = ok ? 'done' : 'failed';
        if (ok && rec.total !== null) rec.written = rec.total;
        if (importsActive.get(userId) === rec) importsActive.delete(userId);
        cluster?.finished(rec, KEEP_FINISHED_MS);
        setTimeout(() => jobs.delete(id), KEEP_FINISHED_MS).unref();
      },
    };
  }

  /**
   * Parses an uploaded CSV on a worker thread (the bytes are transferred, not copied): the rows to
   * write, or why the file is refused. Without a database source it runs in this thread. Given the
   * import's job, cancelling it ends the parse (piscina ends that thread) with ImportCancelled.
   */
  async function parseImport<K extends ImportJob['kind']>(job: ImportJob & { kind: K }, handle?: ImportJobHandle): Promise<ImportParsed<ImportRows[K]>> {
    if (!accepting) throw new ApiError(503, MSG.exportQueueFull, CODE.exportQueueFull);
    if (handle?.signal.aborted) throw new ImportCancelled();
    const progress = handle && ((rows: number, estimate: number) => handle.parsed(rows, estimate));
    if (!importPiscina) return (await import('./import-task.js')).importTask(job, progress) as ImportParsed<ImportRows[K]>;
    const bytes = job.bytes.byteOffset === 0 && job.bytes.byteLength === job.bytes.buffer.byteLength ? [job.bytes.buffer] : [];
    // The thread posts the rows parsed so far while it parses (the bar moves before the count is known).
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (m: ImportParseMessage) => progress?.(m.rows, m.estimate));
    importsParsing++;
    try {
      return (await importPiscina.run(
        { job, port: port2 },
        { transferList: [...bytes, port2] as never, signal: handle?.signal, job: handle?.id },
      )) as ImportParsed<ImportRows[K]>;
    } catch (e) {
      if (handle?.signal.aborted) throw new ImportCancelled();
      throw importFailure(e);
    } finally {
      importsParsing--;
      port1.close();
    }
  }

  /**
   * Writes an import's rows on an import thread with a read-write connection of its own (the
   * request loop's connection stays free; see import-write.ts), reporting the rows handled to the
   * job. Cancelling the job tells the thread, which rolls the import's transaction back. Without a
   * database source it runs in this thread over the same protocol.
   */
  async function writeImport(job: ImportWriteRequest, handle: ImportJobHandle): Promise<ImportWriteResult> {
    if (!accepting) throw new ApiError(503, MSG.importQueueFull, CODE.importQueueFull);
    if (handle.signal.aborted) return { ok: false, reason: 'cancelled' };
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (m: ImportWriteMessage) => handle.handled(m.done));
    const cancel = () => port1.postMessage({ type: 'cancel' } satisfies ImportWriteControl);
    handle.signal.addEventListener('abort', cancel);
    const input = { job: { ...job, size: handle.size }, port: port2 };
    try {
      if (!importPiscina) return await (await import('./import-write.js')).importWriteTask(o.db, input.job, port2);
      return (await importPiscina.run(
        { ...input, source: o.source! },
        { name: 'writeImport', transferList: [port2] as never, job: handle.id },
      )) as ImportWriteResult;
    } catch (e) {
      throw importFailure(e);
    } finally {
      handle.signal.removeEventListener('abort', cancel);
      port1.close();
    }
  }

  /** An import whose thread died answers 500 in the API's error shape (its transaction never committed). */
  const importFailure = (e: unknown) => (e instanceof WorkerFailed ? new ApiError(500, MSG.importFailed, CODE.workerFailed) : e);

  return {
    start,
    beginImport,
    parseImport,
    writeImport,
    /** A job's progress (an export or an import), for its owner only: this node's, else (with Redis) any node's. */
    async progress(userId: string, id: string): Promise<ExportProgress | undefined> {
      const j = jobs.get(id) ?? (await cluster?.read(id));
      return j && j.userId === userId ? progressOf(j) : undefined;
    },
    /**
     * Cancels a queued or running job of its owner: which kind it was, false when there is none. A
     * job of another node (with Redis) is cancelled by that node, which hears of it on pub/sub.
     */
    async cancel(userId: string, id: string): Promise<'export' | 'import' | false> {
      const j = jobs.get(id);
      if (j) {
        if (j.userId !== userId) return false;
        j.cancel();
        return j.kind;
      }
      const shared = await cluster?.read(id);
      if (!shared || shared.userId !== userId) return false;
      if (shared.state === 'queued' || shared.state === 'running') await cluster!.cancel(id, userId);
      return shared.kind;
    },
    /** Resolves once this node hears the other nodes' cancels (with Redis). */
    ready: async () => {
      await cluster?.ready();
    },
    /** Threads, running and queued exports (for tests and health). */
    stats: () => ({
      threads: piscina?.threads ?? 0,
      running: [...active.values()].filter((j) => j.state === 'running').length,
      queued: queued(),
      busyTasks: pending.size,
      /** uploads being parsed on an import thread now */
      importsParsing,
      /** imports running (parsing, writing or looking up rows) */
      imports: importsActive.size,
      importThreads: importPiscina?.threads ?? 0,
    }),
    /** Stops taking exports and waits for those queued or running to finish. */
    async drain() {
      accepting = false;
      await Promise.allSettled([...pending]);
    },
    /** Cancels every export and ends the worker threads. */
    async close() {
      accepting = false;
      for (const j of active.values()) j.cancel();
      for (const j of importsActive.values()) j.cancel();
      await Promise.allSettled([...pending]);
      await piscina?.destroy();
      await importPiscina?.destroy();
      await cluster?.close();
    },
  };
}

export type ExportPool = ReturnType<typeof createExportPool>;
