// Fleet Health live: every minute each node counts Fleet Health again; when the figures differ
// from the last ones announced, the node that records their digest first (a compare-and-set on the
// globalSettings row FleetHealth.Digest) announces FleetHealthChanged on the hub, so a change is
// announced once across nodes, and open Fleet Health pages refetch. Devices cross thresholds with
// time alone (a silent device sends nothing), so the counts are taken again rather than derived
// from ingestion.
import { createHash } from 'node:crypto';
import type { DB } from '../../db/index.js';
import { FLEET_HEALTH_CHANGED_EVENT, type FleetHealthChangedEvent } from '../../../shared/schemas/fleet.js';
import { fleetHealth } from './repo.js';

export const FLEET_SWEEP_MS = 60_000;
export const FLEET_DIGEST_KEY = 'FleetHealth.Digest';

/** Counts again; announces a change when this node is the one that recorded it. Returns whether it announced. */
export async function sweepFleetHealth(db: DB, now: Date, broadcast: (event: string, payload: FleetHealthChangedEvent) => Promise<void>): Promise<boolean> {
  const h = await fleetHealth(db, now);
  const figures = JSON.stringify([h.Counts, h.Customers.map((c) => [c.CustomerId, c.Counts])]);
  const digest = createHash('sha256').update(figures).digest('base64url');
  const before = await db.selectFrom('globalSettings').select('value').where('key', '=', FLEET_DIGEST_KEY).executeTakeFirst();
  if (before?.value === digest) return false;
  const won = before
    ? Number(
        (await db.updateTable('globalSettings').set({ value: digest }).where('key', '=', FLEET_DIGEST_KEY).where('value', '=', before.value).executeTakeFirst())
          .numUpdatedRows,
      ) === 1
    : Number(
        (
          await db
            .insertInto('globalSettings')
            .values({ key: FLEET_DIGEST_KEY, value: digest })
            .onConflict((oc) => oc.column('key').doNothing())
            .executeTakeFirst()
        ).numInsertedOrUpdatedRows ?? 0,
      ) === 1;
  if (won) await broadcast(FLEET_HEALTH_CHANGED_EVENT, { At: now.toISOString() });
  return won;
}

/** Runs the sweep every `intervalMs` (the timer does not keep the process alive); a failed run is logged and tried again next tick. */
export function startFleetSweep(
  deps: { db: DB; now: () => Date; log: (e: Record<string, unknown>) => void; broadcast: (event: string, payload: unknown) => Promise<void> },
  intervalMs = FLEET_SWEEP_MS,
) {
  let running = false;
  const runNow = async () => {
    if (running) return false;
    running = true;
    try {
      return await sweepFleetHealth(deps.db, deps.now(), deps.broadcast);
    } catch (e) {
      deps.log({ msg: 'fleet health sweep failed', error: String((e as Error)?.message ?? e) });
      return false;
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void runNow(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), runNow };
}
