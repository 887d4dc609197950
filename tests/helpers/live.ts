// Devices, customers and device messages for the live-devices tests.
import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { DB } from '../../src/server/db/index.js';
import type { CustomerTable, DeviceTable } from '../../src/server/db/schema.js';
import type { IngestMessageInput } from '../../src/shared/schemas/live.js';

export const GATEWAY_KEY = 'test-gateway-key';

export async function insertCustomer(db: DB, tenantId = randomUUID(), name = 'Live Customer') {
  const id = randomUUID();
  const now = new Date().toISOString();
  await db
    .insertInto('customers')
    .values({
      id,
      tenantId,
      name,
      etag: '"c"',
      deviceSubscriptionsEtag: '"d"',
      appSubscriptionsEtag: '"a"',
      createdAt: now,
      updatedAt: now,
    } as unknown as Insertable<CustomerTable>)
    .execute();
  return { id, tenantId };
}

export async function insertDevice(db: DB, over: Partial<DeviceTable> & { serialNumber: string }) {
  const now = new Date().toISOString();
  const row: Insertable<DeviceTable> = {
    id: randomUUID(),
    imei: null,
    imsi: null,
    type: 640,
    phoneNumber: null,
    simPhoneNumber: null,
    simSerial: null,
    simTypeId: null,
    simStatus: null,
    supplier: 'Supplier Ltd',
    status: 1,
    customerId: null,
    orderNumber: null,
    isUserAssigned: 0,
    assignedPersonId: null,
    firmwareVersion: '4.3.1',
    lastConfigurationDate: null,
    dateReceived: now,
    lastUpdated: now,
    addedToSystem: now,
    etag: '"e0"',
    ...over,
  };
  await db.insertInto('devices').values(row).execute();
  return row as Insertable<DeviceTable> & { id: string };
}

let seq = 0;
/** A device message as a gateway sends it. */
export function message(identity: string, over: Partial<IngestMessageInput> = {}): IngestMessageInput {
  seq++;
  return {
    messageId: `msg-${process.pid}-${Date.now()}-${seq}`,
    deviceIdentity: identity,
    deviceType: 640,
    date: new Date(Date.now() - 1000 + seq).toISOString(),
    message: 'Heartbeat',
    battery: 80,
    signal: 60,
    rawMessage: `+RESP:GTHBD,${identity}$`,
    properties: { MessageType: 'GTHBD' },
    ...over,
  };
}
