// An import's database writes, as a pool thread runs them with a read-write connection of its own,
// so the request loop's connection is never held by them: on SQLite the server's connection keeps
// reading (WAL) while the import writes, on PostgreSQL it runs on a connection outside the server's
// pool. First the serials are looked up (reads, no lock), then the new devices and the import's
// audit entry are written in one transaction (on SQLite, BEGIN IMMEDIATE), a step at a time: the
// rows handled are posted over a port after each step, and a 'cancel' message makes the next step
// throw, so the transaction rolls back and nothing is written.
import type { MessagePort } from 'node:worker_threads';
import { writeTx, type DB } from '../db/index.js';
import { audit } from '../platform/util.js';
import { importWriterOf, type ImportKinds } from './registry.js';

/** What to write: plain data (it crosses to a worker thread). `now` is an ISO instant. */
export type ImportWriteRequest = { [K in keyof ImportKinds]: { kind: K; rows: ImportKinds[K][]; now: string; actorId: string } }[keyof ImportKinds];
/** As the thread runs it: with the rows per step. */
export type ImportWriteJob = ImportWriteRequest & { size: number };

/** Worker → request side: rows of the file handled (looked up and written) so far. */
export type ImportWriteMessage = { type: 'step'; done: number };
/** Request side → worker. */
export type ImportWriteControl = { type: 'cancel' };

export type ImportWriteResult =
  | { ok: true; idList: string[]; created: number; alreadyPresent: string[] }
  /** cancelled: nothing was written */
  | { ok: false; reason: 'cancelled' }
  /** another import created one of these serials meanwhile: nothing was written */
  | { ok: false; reason: 'race' };

class Cancelled extends Error {}

const isUniqueViolation = (e: unknown) => {
  const code = (e as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
};

export async function importWriteTask(db: DB, job: ImportWriteJob, port: MessagePort): Promise<ImportWriteResult> {
  let cancelled = false;
  port.on('message', (m: ImportWriteControl) => {
    if (m.type === 'cancel') cancelled = true;
  });
  // A turn of this thread's loop (a cancel arrives between steps), then stop if cancelled.
  const check = async () => {
    await new Promise((r) => setImmediate(r));
    if (cancelled) throw new Cancelled();
  };
  try {
    const now = new Date(job.now);
    const writer = importWriterOf(job.kind);
    const plan = await writer.plan(db, job.rows, now, { size: job.size, check });
    const created = await writeTx(db, async (trx) => {
      const n = await writer.write(trx, plan, {
        step: async (done) => {
          port.postMessage({ type: 'step', done } satisfies ImportWriteMessage);
          await check();
        },
      });
      await audit(trx, {
        actorId: job.actorId,
        action: writer.audit.action,
        entity: writer.audit.entity,
        entityId: null,
        at: now,
        details: { rows: job.rows.length, created: n },
      });
      // A cancel that arrived during the last step or the audit entry still rolls everything back.
      if (cancelled) throw new Cancelled();
      return n;
    });
    return { ok: true, idList: plan.idList, created, alreadyPresent: plan.alreadyPresent };
  } catch (e) {
    if (e instanceof Cancelled) return { ok: false, reason: 'cancelled' };
    if (isUniqueViolation(e)) return { ok: false, reason: 'race' };
    throw e;
  } finally {
    port.removeAllListeners('message');
  }
}
