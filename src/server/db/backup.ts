// Online backups of the embedded SQLite database (DATA_DIR/workspace.sqlite) with SQLite's backup
// API (better-sqlite3): the copy is one consistent snapshot, taken while the server keeps serving
// (in WAL mode readers do not block writers, so the copy reads everything in one step and no write
// waits for it). Restore copies a backup over the database the same way; the server must be
// stopped first. PostgreSQL is backed up with its own tools (pg_dump / pg_restore, docs/operations.md).
import SQLite from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, openSync, rmSync, statSync } from 'node:fs';

export type BackupResult = { file: string; bytes: number; pages: number; ms: number; persons: number };

/** Every page in one step: the copy is a snapshot of one moment, never restarted by a concurrent write. */
const ALL_PAGES = () => 2 ** 30;

function check(db: SQLite.Database, what: string) {
  const rows = db.pragma('integrity_check') as { integrity_check: string }[];
  const bad = rows.map((r) => r.integrity_check).filter((r) => r !== 'ok');
  if (bad.length) throw new Error(`${what} fails SQLite's integrity check: ${bad.slice(0, 3).join('; ')}`);
}

/** Copies the live database `source` to `target` (overwritten) and checks the copy. */
export async function backupSqlite(source: string, target: string): Promise<BackupResult> {
  if (!existsSync(source)) throw new Error(`no database at ${source} (set DATA_DIR to the server's data directory)`);
  const started = performance.now();
  // owner-only like the database itself (it holds password hashes and personal data)
  rmSync(target, { force: true });
  closeSync(openSync(target, 'w', 0o600));
  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const r = await db.backup(target, { progress: ALL_PAGES });
    chmodSync(target, 0o600);
    const copy = new SQLite(target, { readonly: true });
    try {
      check(copy, 'the backup');
      const persons = (copy.prepare('select count(*) as n from persons').get() as { n: number }).n;
      return { file: target, bytes: statSync(target).size, pages: r.totalPages, ms: Math.round(performance.now() - started), persons };
    } finally {
      copy.close();
    }
  } finally {
    db.close();
  }
}

/**
 * Replaces the database `target` with the backup `source` (the server must be stopped). The
 * current database is first kept as `target.before-restore` (replaced by the next restore).
 */
export async function restoreSqlite(source: string, target: string): Promise<{ kept?: string; ms: number }> {
  if (!existsSync(source)) throw new Error(`no backup at ${source}`);
  const started = performance.now();
  const backup = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    check(backup, 'the backup');
    let kept: string | undefined;
    if (existsSync(target)) {
      kept = `${target}.before-restore`;
      await backupSqlite(target, kept);
    }
    // Written through SQLite (not a file copy): the target's WAL is reset with it, nothing stale survives.
    if (!existsSync(target)) closeSync(openSync(target, 'w', 0o600));
    await backup.backup(target, { progress: ALL_PAGES });
    chmodSync(target, 0o600);
    const db = new SQLite(target);
    try {
      db.pragma('journal_mode = WAL');
      check(db, 'the restored database');
    } finally {
      db.close();
    }
    return { kept, ms: Math.round(performance.now() - started) };
  } finally {
    backup.close();
  }
}
