// A counter bumped whenever a device's type or identity (IMEI, serial) changes, after the change's
// commit. Readers that cache devices by identity (live ingestion) drop what they cached under an
// older value, so the next message of a changed device is checked against what it is now.

let epoch = 0;

/** The current value: a cache filled under another value is stale. */
export const deviceIdentityEpoch = () => epoch;

/** A device's type or identity changed (call after the commit). */
export function deviceIdentitiesChanged() {
  epoch++;
}
