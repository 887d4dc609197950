// Device (stock service) calls, spec document 2 §7: request functions and one queryOptions factory
// per endpoint under hierarchical keys (['devices', 'list', params], ['devices', 'detail', id] ...).
// Shared by the asset list, the device tab and the bulk update page (features never import each
// other, so this lives in src/app/api).
import { exportHeaders, type ExportCall } from './exports';
import { type QueryClient } from '@tanstack/react-query';
import { http } from './http';
import type { LookupDto, DeviceTypeDto } from '../../shared/schemas/reference';

import {
  DEVICE_ORDER_BY,
  MAX_BULK,
  type BulkChangeResponse,
  type DeviceDto,
  type DeviceGeneralDetailsBody,
  type DeviceList,
  type DeviceListFilter,
  type DeviceMany,
  type DeviceOrderBy,
  type ImportResponse,
} from '../../shared/schemas/devices';
import { FLEET_CATEGORIES, type FleetCategory } from '../../shared/schemas/fleet';
import { listQuery, lookupQuery, recordListKeys, recordQuery } from './queries';

// The answer and input types are the contract's (src/shared/schemas/devices.ts); re-exported for the pages.
export type { BulkChangeResponse, DeviceDto, DeviceList, DeviceListFilter, DeviceMany, ImportResponse };
export type DeviceGeneralDetails = DeviceGeneralDetailsBody['generalDetails'];
export type DeviceRef = { id: string; etag: string };

const nums = (v: unknown) => (Array.isArray(v) ? v.map(Number).filter((n) => Number.isFinite(n)) : []);
const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/**
 * A device list's filter bar values (search, types, statuses, orderNumber, assigned 'yes' / 'no',
 * lastConfig), paging and sort → the get-list body (the asset list's and a customer's devices').
 * Empty filters are left out; a sort the contract does not know is by serial number.
 */
export function deviceListFilterOf(values: Record<string, unknown>, page: number, pageSize: number, sort: { key: string; desc: boolean }): DeviceListFilter {
  const orderBy: DeviceOrderBy = (DEVICE_ORDER_BY as readonly string[]).includes(sort.key) ? (sort.key as DeviceOrderBy) : 'SerialNumber';
  const out: DeviceListFilter = { page, pageSize, orderBy, desc: sort.desc };
  const search = trimmed(values.search);
  if (search) out.searchValue = search;
  const types = nums(values.types);
  if (types.length) out.deviceTypeIds = types;
  const statuses = nums(values.statuses);
  if (statuses.length) out.statusIds = statuses;
  const order = trimmed(values.orderNumber);
  if (order) out.orderNumber = order;
  if (values.assigned === 'yes') out.assigned = true;
  else if (values.assigned === 'no') out.assigned = false;
  const lastConfig = typeof values.lastConfig === 'string' && values.lastConfig !== '' ? Number(values.lastConfig) : 0;
  if (lastConfig) out.lastConfig = lastConfig;
  if (typeof values.fleet === 'string' && (FLEET_CATEGORIES as readonly string[]).includes(values.fleet)) out.fleetHealth = values.fleet as FleetCategory;
  return out;
}

export const deviceKeys = {
  ...recordListKeys<DeviceListFilter>('devices'),
  bySerial: (serial: string) => ['devices', 'by-serial', serial] as const,
  types: () => ['devices', 'lookup', 'types'] as const,
  simTypes: () => ['devices', 'lookup', 'sim-types'] as const,
  statuses: () => ['devices', 'lookup', 'statuses'] as const,
  lastConfigFilters: () => ['devices', 'lookup', 'last-config-filters'] as const,
};

// ---- lookups (never refetched on focus: spec §7)
export const deviceTypesQuery = () => lookupQuery<DeviceTypeDto[]>(deviceKeys.types(), '/api/v1/device/get-types');
export const simTypesQuery = () => lookupQuery<LookupDto[]>(deviceKeys.simTypes(), '/api/v1/device/get-sim-types');
export const assetStatusesQuery = () => lookupQuery<LookupDto[]>(deviceKeys.statuses(), '/api/v1/device/get-asset-statuses');
export const lastConfigFiltersQuery = () => lookupQuery<LookupDto[]>(deviceKeys.lastConfigFilters(), '/api/v1/device/get-last-config-filters');

// ---- devices
/** POST api/v1/device/get-list — the previous page stays on screen while the next loads. */
export const deviceListQuery = (filter: DeviceListFilter) =>
  listQuery(deviceKeys.list(filter), (signal) => http<DeviceList>('/api/v1/device/get-list', { method: 'POST', body: filter, signal }));

/**
 * The serial numbers of every device a list's filter selects (its paging left aside), in the
 * list's order: page after page of 100 by Next (`after` the last row), at most MAX_BULK (the
 * bulk list's and the bulk changes' limit). `total` is how many the filter selects.
 */
export async function listedSerials(filter: DeviceListFilter, signal?: AbortSignal): Promise<{ serials: string[]; total: number }> {
  const serials: string[] = [];
  let total = 0;
  let after: string | undefined;
  for (let page = 1; serials.length < MAX_BULK; page++) {
    const body: DeviceListFilter = { ...filter, page, pageSize: 100, ...(after ? { after } : {}) };
    const list = await http<DeviceList>('/api/v1/device/get-list', { method: 'POST', body, signal });
    total = list.totalCount;
    serials.push(...list.devices.map((d) => d.serialNumber));
    if (list.devices.length < 100 || serials.length >= total) break;
    after = list.devices[list.devices.length - 1]!.id;
  }
  return { serials: serials.slice(0, MAX_BULK), total };
}

/** GET /api/v1/device/get-by-id?id= */
export const deviceDetailQuery = (id: string) =>
  recordQuery(deviceKeys.detail(id), id, (signal) => http<DeviceDto>('/api/v1/device/get-by-id', { signal, query: { id } }));

/** GET /api/v1/device/get-by-serial?serial= */
export const getDeviceBySerial = (serial: string, signal?: AbortSignal) => http<DeviceDto>('/api/v1/device/get-by-serial', { signal, query: { serial } });

/** POST api/v1/device/get-list-by-ids */
export const getDevicesByIds = (ids: readonly string[], signal?: AbortSignal) =>
  http<DeviceMany>('/api/v1/device/get-list-by-ids', { method: 'POST', body: { ids }, signal });

/** POST /api/v1/device/get-list-by-serials — unknown serials come back as placeholders. */
export const getDevicesBySerials = (serials: readonly string[], signal?: AbortSignal) =>
  http<DeviceMany>('/api/v1/device/get-list-by-serials', { method: 'POST', body: { serials }, signal });

/** PUT api/v1/device/{deviceId}/general-details — a stale etag answers 409. */
export const updateDeviceGeneralDetails = (id: string, etag: string, generalDetails: DeviceGeneralDetails) =>
  http<DeviceDto>(`/api/v1/device/${encodeURIComponent(id)}/general-details`, { method: 'PUT', body: { etag, generalDetails } });

/** PUT /api/v1/device/change-status-many */
export const changeStatusMany = (status: number, devices: DeviceRef[]) =>
  http<BulkChangeResponse>('/api/v1/device/change-status-many', { method: 'PUT', body: { status, devices } });

/** PUT /api/v1/device/change-order-number-many */
export const changeOrderNumberMany = (orderNumber: string, devices: DeviceRef[]) =>
  http<BulkChangeResponse>('/api/v1/device/change-order-number-many', { method: 'PUT', body: { orderNumber, devices } });

/** PUT /api/v1/device/change-device-type */
export const changeDeviceType = (serials: readonly string[], newDeviceType: number) =>
  http<BulkChangeResponse>('/api/v1/device/change-device-type', { method: 'PUT', body: { serials, newDeviceType } });

/** POST api/v1/import/devices (multipart, field File) → idList. */
export const importDevices = (file: File, o: ExportCall = {}) => {
  const form = new FormData();
  form.append('File', file);
  return http<ImportResponse>('/api/v1/import/devices', { method: 'POST', body: form, headers: exportHeaders(o), signal: o.signal });
};

/** After an update the cached device and its list rows become the server's answer (new etag, no refetch). */
export function patchDeviceInCache(qc: QueryClient, device: DeviceDto) {
  const id = device.id;
  const patch = device;
  qc.setQueryData<DeviceDto>(deviceKeys.detail(id), (old) => (old ? { ...old, ...patch } : old));
  qc.setQueriesData<DeviceList>({ queryKey: deviceKeys.lists() }, (old) =>
    old ? { ...old, devices: old.devices.map((d) => (d.id === id ? { ...d, ...patch } : d)) } : old,
  );
}

/** POST /api/v1/device/export/list-with-filters → an .xlsx file of every device matching the filters. */
export const exportDevicesWithFilters = (filter: Omit<DeviceListFilter, 'page' | 'pageSize'>, o: ExportCall = {}) =>
  http<Blob>('/api/v1/device/export/list-with-filters', { method: 'POST', body: filter, responseType: 'blob', signal: o.signal, headers: exportHeaders(o) });

/** POST /api/v1/device/export/list-by-ids → an .xlsx file of the given devices. */
export const exportDevicesByIds = (ids: readonly string[], o: ExportCall = {}) =>
  http<Blob>('/api/v1/device/export/list-by-ids', { method: 'POST', body: { ids }, responseType: 'blob', signal: o.signal, headers: exportHeaders(o) });

/** Saves a downloaded file under a name (the browser's download). */
export function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
