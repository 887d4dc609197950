// How firmware versions compare (fleet health's "firmware behind": older than the newest version
// reported for the device type). Versions are free text from the devices ('5.1.4', 'T4-2.11',
// 'EV07B_3.2.05'): runs of digits compare as numbers, other text as text.

/** Negative when a is older than b, positive when newer, 0 when the same. */
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

/** The newer of the newest so far (null: none yet) and a version seen. */
export const newestFirmware = (current: string | null, seen: string) => (current === null || compareFirmware(seen, current) > 0 ? seen : current);
