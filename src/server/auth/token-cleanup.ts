// Periodic clean-up of refresh tokens that can no longer give a session
// (decision "Refresh tokens are cleaned up hourly", docs/decisions/auth-and-sessions.md). Every
// rotation leaves the used token behind and every sign-out or
// reuse detection leaves a revoked family, so without this the table only grows.
//
// Deleted: tokens past their expiry (used or not), and tokens used or revoked more than
// SPENT_RETENTION_MS ago. A used token is kept for that window because it is what reuse
// detection looks for: presenting a used token within the window ends the whole family
// (token.ts refreshGrant); after it, the token is simply unknown (400 invalid_grant, as before).
// Idempotent and safe to run on several nodes at once.
import type { DB } from '../db/index.js';

/** Used and revoked tokens stay this long (reuse detection), then go. */
export const SPENT_RETENTION_MS = 24 * 3600_000;
/** How often the job runs (also once at start). */
export const CLEANUP_INTERVAL_MS = 3600_000;

/** Deletes expired tokens and tokens used or revoked before `now - retentionMs`. Returns how many went. */
export async function deleteSpentRefreshTokens(db: DB, now: Date, retentionMs = SPENT_RETENTION_MS): Promise<number> {
  const nowIso = now.toISOString();
  const before = new Date(now.getTime() - retentionMs).toISOString();
  const r = await db
    .deleteFrom('refreshTokens')
    .where((eb) => eb.or([eb('expiresAt', '<=', nowIso), eb('usedAt', '<=', before), eb('revokedAt', '<=', before)]))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** `stop` ends the ticks and settles once a run already under way has finished (nothing deletes after it). */
export type CleanupJob = { stop: () => Promise<void>; runNow: () => Promise<number> };

/**
 * Runs deleteSpentRefreshTokens now and every `intervalMs` (the timer does not keep the process
 * alive). A failed run is logged and tried again at the next tick.
 */
export function startRefreshTokenCleanup(
  deps: { db: DB; now: () => Date; log: (e: Record<string, unknown>) => void },
  opts: { intervalMs?: number; retentionMs?: number } = {},
): CleanupJob {
  let running: Promise<number> | null = null;
  const runNow = () =>
    (running ??= deleteSpentRefreshTokens(deps.db, deps.now(), opts.retentionMs)
      .then(
        (n) => {
          if (n) deps.log({ msg: 'refresh tokens cleaned up', deleted: n });
          return n;
        },
        (e: unknown) => {
          deps.log({ msg: 'refresh token clean-up failed', error: String((e as Error)?.message ?? e) });
          return 0;
        },
      )
      .finally(() => {
        running = null;
      }));
  void runNow();
  const timer = setInterval(() => void runNow(), opts.intervalMs ?? CLEANUP_INTERVAL_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
    runNow,
  };
}
