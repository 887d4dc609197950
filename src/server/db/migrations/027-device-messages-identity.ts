import { sql, type Kysely, type Migration } from 'kysely';

/**
 * A device's message history is read through the device index (deviceId, date), not a second
 * index by identity (decision "A device's messages are read through the device index only",
 * docs/decisions/live-and-hub.md). Every ingested message wrote a leaf page of both, one
 * device's leaf after another's, and the WAL frames of those pages were most of ingestion's system
 * time; without the identity index a batch writes about a quarter fewer frames. The stream and the
 * detailed message find the devices of an identity first (by IMEI or serial number), then their
 * rows of that identity.
 */
export const m027: Migration = {
  async up(db: Kysely<any>) {
    await sql`drop index if exists "deviceMessages_identity_idx"`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`create index if not exists "deviceMessages_identity_idx" on "deviceMessages" ("deviceIdentity", "date")`.execute(db);
  },
};
