// Devices that go quiet (spec document 2 §4 live updates): a device counts as connected for
// CONNECTED_WINDOW_SECONDS after its last message. Reads already say 'Not connected' after that,
// but a screen watching live only learns it from an event, so a sweep turns the stored state off
// for devices silent longer than the window and publishes DeviceConnected { IsConnected: false }.
// The update is conditional (isConnected = 1), so with several nodes only one announces a device.
import type { DB } from '../../db/index.js';
import type { HubEvent } from '../../realtime/hub.js';
import { CONNECTED_WINDOW_SECONDS, hubPayload } from '../../../shared/schemas/live.js';

export const SILENCE_SWEEP_MS = 60_000;

/** Marks devices silent past the window as not connected; returns the DeviceConnected events to publish. */
export async function markSilentDevices(db: DB, now: Date): Promise<HubEvent<'DeviceConnected'>[]> {
  const cutoff = new Date(now.getTime() - CONNECTED_WINDOW_SECONDS * 1000).toISOString();
  const gone = await db
    .updateTable('deviceLastMessages')
    .set({ isConnected: 0 })
    .where('isConnected', '=', 1)
    .where('receivedAt', '<', cutoff)
    .returning(['deviceId', 'deviceIdentity', 'date'])
    .execute();
  if (!gone.length) return [];
  const serials = new Map<string, string>();
  for (let i = 0; i < gone.length; i += 500) {
    const ids = gone.slice(i, i + 500).map((g) => g.deviceId);
    for (const d of await db.selectFrom('devices').select(['id', 'serialNumber']).where('id', 'in', ids).execute()) serials.set(d.id, d.serialNumber);
  }
  return gone.map((g) => ({
    event: 'DeviceConnected' as const,
    identity: g.deviceIdentity,
    payload: hubPayload.DeviceConnected({
      DeviceId: g.deviceId,
      DeviceIdentity: g.deviceIdentity,
      SerialNumber: serials.get(g.deviceId) ?? '',
      IsConnected: false,
      Date: g.date,
    }),
  }));
}

/** Runs the sweep every `intervalMs` (the timer does not keep the process alive); a failed run is logged and tried again next tick. */
export function startSilenceSweep(
  deps: { db: DB; now: () => Date; log: (e: Record<string, unknown>) => void; publish: (events: HubEvent[]) => Promise<void> },
  intervalMs = SILENCE_SWEEP_MS,
) {
  let running = false;
  const runNow = async () => {
    if (running) return 0;
    running = true;
    try {
      const events = await markSilentDevices(deps.db, deps.now());
      if (events.length) await deps.publish(events);
      return events.length;
    } catch (e) {
      deps.log({ msg: 'silence sweep failed', error: String((e as Error)?.message ?? e) });
      return 0;
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void runNow(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), runNow };
}
