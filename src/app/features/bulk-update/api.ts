// Device requests the bulk update page needs (stock service, spec §7). Rows are reduced to what
// the bulk table shows (BulkDevice) so the persisted bulk list stays small.
import { http } from '../../api/http';
import { placeholderFor, type BulkDevice } from '../../state/bulk';

type Named = { name: string; value: number };
/** The device fields the bulk page reads (the contract's device has more). */
export type DeviceLike = {
  id: string;
  etag: string;
  serialNumber: string;
  imei?: string | null;
  type?: Named | null;
  deviceType?: Named | null;
  status?: Named | null;
  assetStatus?: Named | null;
  orderNumber?: string | null;
  customerName?: string | null;
  customer?: unknown;
  isUserAssigned?: boolean | null;
  userAssigned?: boolean | null;
  assigned?: boolean | null;
};

const UNKNOWN: Named = { name: 'Unknown', value: 0 };

export function toBulkDevice(d: DeviceLike): BulkDevice {
  if (d.etag === 'not-found') return placeholderFor(d.serialNumber);
  return {
    id: d.id,
    etag: d.etag,
    serialNumber: d.serialNumber,
    imei: d.imei ?? null,
    type: d.type ?? d.deviceType ?? UNKNOWN,
    status: d.status ?? d.assetStatus ?? UNKNOWN,
    orderNumber: d.orderNumber ?? null,
    customerName: d.customerName ?? (typeof d.customer === 'string' ? d.customer : null),
    isUserAssigned: !!(d.isUserAssigned ?? d.userAssigned ?? d.assigned),
  };
}

/**
 * POST /api/v1/device/get-list-by-serials: one request for many serials. Returns one row per
 * serial asked, in the order asked (a placeholder for a serial the server does not know).
 */
export async function getDevicesBySerials(serials: string[], signal?: AbortSignal): Promise<BulkDevice[]> {
  if (!serials.length) return [];
  const res = await http<{ devices: DeviceLike[] }>('/api/v1/device/get-list-by-serials', { method: 'POST', body: { serials }, signal });
  const bySerial = new Map<string, BulkDevice>();
  for (const d of res.devices ?? []) bySerial.set(d.serialNumber.trim().toUpperCase(), toBulkDevice(d));
  return serials.map((s) => bySerial.get(s.trim().toUpperCase()) ?? placeholderFor(s));
}

/** GET /api/v1/device/get-by-serial: the device id for "open device" (null when unknown). */
export async function getDeviceIdBySerial(serial: string): Promise<string | null> {
  try {
    const d = await http<DeviceLike>('/api/v1/device/get-by-serial', { query: { serial } });
    return d?.id ?? null;
  } catch (err) {
    if ((err as { status?: number }).status === 404) return null;
    throw err;
  }
}

type Ref = { id: string; etag: string };
type BulkChangeResponse = { updated: number; devices: Ref[] };

/** PUT /api/v1/device/change-status-many — all or nothing. */
export const changeStatusMany = (status: number, devices: Ref[]) =>
  http<BulkChangeResponse>('/api/v1/device/change-status-many', { method: 'PUT', body: { status, devices } });

/** PUT /api/v1/device/change-order-number-many — only eligible devices are sent. */
export const changeOrderNumberMany = (orderNumber: string, devices: Ref[]) =>
  http<BulkChangeResponse>('/api/v1/device/change-order-number-many', { method: 'PUT', body: { orderNumber, devices } });

/** PUT /api/v1/device/change-device-type. */
export const changeDeviceType = (serials: string[], newDeviceType: number) =>
  http<BulkChangeResponse>('/api/v1/device/change-device-type', { method: 'PUT', body: { serials, newDeviceType } });
