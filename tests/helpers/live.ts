// Devices, customers and device messages for the live-devices tests.
import { randomUUID } from 'node:crypto';
import type { DB } from '../../src/server/db/index.js';
import type { DeviceTable } from '../../src/server/db/schema.js';
import type { IngestMessageInput } from '../../src/shared/schemas/live.js';
import { deviceRow, insertCustomer as insertCustomerRow } from './customer-rows.js';

export const GATEWAY_KEY = 'test-gateway-key';

export async function insertCustomer(db: DB, tenantId = randomUUID(), name = 'Live Customer') {
  const { id } = await insertCustomerRow(db, { tenantId, name, etag: '"c"', deviceSubscriptionsEtag: '"d"', appSubscriptionsEtag: '"a"' });
  return { id, tenantId };
}

export async function insertDevice(db: DB, over: Partial<DeviceTable> & { serialNumber: string }) {
  const row = deviceRow({ type: 640, firmwareVersion: '4.3.1', etag: '"e0"', ...over });
  await db.insertInto('devices').values(row).execute();
  return row;
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
