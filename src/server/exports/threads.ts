// A piscina pool that a failing worker thread never takes down with the process. Piscina reports a
// thread that fails with a task of its own by rejecting that task; a thread that fails with no task
// (it could not load its file) becomes an 'error' event on the pool, and from then on piscina
// starts no more threads, so the tasks waiting for one would wait for ever. Here that event is
// logged, counted, and the pool replaced: the old one is destroyed (the tasks it held fail) and
// the next task gets a fresh pool.
//
// A task's failure reaches its caller as the error the task threw, or as WorkerFailed when the
// thread itself died (could not load, ran out of memory, exited); each is logged with the job's id
// and counted in export_worker_failures_total{pool, kind}.
import { Piscina } from 'piscina';
import { errorEvents, workerFailures } from '../platform/metrics.js';

export type WorkerFailureKind = 'load' | 'error' | 'out_of_memory' | 'exit';

/** The thread that ran (or was to run) a task died: it could not load, ran out of memory or exited. */
export class WorkerFailed extends Error {
  constructor(
    readonly kind: Exclude<WorkerFailureKind, 'error'>,
    readonly reason: unknown,
  ) {
    super(`worker thread failed (${kind}): ${reason instanceof Error ? reason.message : String(reason)}`);
  }
}

type Options = ConstructorParameters<typeof Piscina>[0] & {};
type RunOptions = Parameters<Piscina['run']>[1] & {};

export function workerThreads<I, R>(pool: 'export' | 'import', options: Options, log: (e: Record<string, unknown>) => void) {
  const replaced = new WeakSet<Piscina>();
  let closed = false;
  const make = (): Piscina<I, R> => {
    const p = new Piscina<I, R>(options);
    p.on('error', (error: unknown) => {
      errorEvents.inc({ source: `${pool}_pool` });
      workerFailures.inc({ pool, kind: 'load' });
      log({ msg: 'worker thread failed', level: 'error', pool, kind: 'load', error: String((error as Error)?.stack ?? error) });
      if (current !== p || closed) return;
      // Piscina starts no more threads for this pool: a fresh one takes the next tasks, and the
      // tasks this one holds fail (WorkerFailed 'load') instead of waiting for ever.
      replaced.add(p);
      current = make();
      p.destroy().catch(() => {});
    });
    return p;
  };
  let current = make();

  /** Why a task failed: WorkerFailed when its thread died, else the task's own error. Counted and logged with the job's id. */
  function failure(p: Piscina, error: unknown, job: string | undefined, signal?: AbortSignal | null): unknown {
    if (signal?.aborted || closed) return error; // cancelled by its owner, or the pool is closing
    const e = error as { code?: string; message?: string } | undefined;
    const kind: WorkerFailureKind = replaced.has(p)
      ? 'load'
      : e?.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? 'out_of_memory'
        : /^worker exited with code/.test(e?.message ?? '')
          ? 'exit'
          : 'error';
    // a pool replaced after a failed load was counted once, by its 'error' event
    if (!replaced.has(p)) workerFailures.inc({ pool, kind });
    log({ msg: 'worker task failed', level: 'error', pool, job, kind, error: String((error as Error)?.stack ?? error) });
    return kind === 'error' ? error : new WorkerFailed(kind, error);
  }

  return {
    /** Runs a task; `job` names the job in the log when it fails. */
    async run(input: I, opts: RunOptions & { job?: string } = {}): Promise<R> {
      const p = current;
      const { job, ...runOpts } = opts;
      try {
        return await p.run(input, runOpts);
      } catch (e) {
        throw failure(p, e, job, runOpts.signal as AbortSignal | null | undefined);
      }
    },
    get threads() {
      return current.threads.length;
    },
    /** The pool in use now (tests). */
    get piscina() {
      return current;
    },
    destroy() {
      closed = true;
      return current.destroy();
    },
  };
}
export type WorkerThreads = ReturnType<typeof workerThreads>;
