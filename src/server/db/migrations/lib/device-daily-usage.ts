// Frozen from src/server/modules/live/daily-usage.ts (DAILY_USAGE_COUNTS) and
// src/shared/firmware.ts (compareFirmware, newestFirmware), for migration 030.

/** Count column and the message text it counts. */
export const DAILY_USAGE_COUNTS = [
  ['heartbeats', 'Heartbeat'],
  ['locations', 'Location update'],
  ['checkIns', 'Check-in'],
  ['lowBatteries', 'Low battery'],
  ['powerOns', 'Power on'],
  ['powerOffs', 'Power off'],
  ['chargings', 'Charging started'],
  ['sosAlarms', 'SOS alarm'],
  ['falls', 'Fall detected'],
  ['configurationAcks', 'Configuration acknowledged'],
] as const;

/** Firmware versions compared part by part: runs of digits as numbers, other text as text ('5.10.0' after '5.9.2'). */
export function compareFirmware(a: string, b: string): number {
  const pa = a.match(/\d+|\D+/g) ?? [];
  const pb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d/.test(x);
    const ny = /^\d/.test(y);
    if (nx && ny) {
      const d = Number(x) - Number(y);
      if (d) return d < 0 ? -1 : 1;
    } else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

export const newestFirmware = (current: string | null, seen: string) => (current === null || compareFirmware(seen, current) > 0 ? seen : current);
