// Device (stock service) calls, spec document 2 §7: request functions and one queryOptions factory
// per endpoint under hierarchical keys (['devices', 'list', params], ['devices', 'detail', id] ...).
// Shared by the asset list, the device tab and the bulk update page (features never import each
// other, so this lives in src/app/api).
import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import { http } from './http';
import type { LookupDto, DeviceTypeDto } from '../../shared/schemas/reference';

// ---- types (provisional until the devices contract lands in src/shared/schemas/devices.ts)
export type DeviceLookup = { name: string; value: number };
export type DeviceDto = {
  id: string;
  etag: string;
  serialNumber: string;
  imei: string | null;
  imsi: string | null;
  type: DeviceLookup;
  phoneNumber: string | null;
  simPhoneNumber: string | null;
  simSerial: string | null;
  simTypeId: number | null;
  simType: string | null;
  simStatus: { name: string } | null;
  supplier: string | null;
  status: DeviceLookup;
  customerAccountId: string | null;
  customerName: string | null;
  orderNumber: string | null;
  isUserAssigned: boolean;
  lastConfigurationDate: string | null;
  dateReceived: string | null;
  lastUpdated: string;
  addedToSystem: string;
  isAllocatable: boolean;
};
export type DeviceList = { devices: DeviceDto[]; totalCount: number; generalTotalCount: number };
export type DeviceListFilter = {
  page: number;
  pageSize: number;
  orderBy: string;
  desc: boolean;
  search?: string;
  types?: number[];
  statuses?: number[];
  orderNumber?: string;
  assigned?: boolean;
  lastConfig?: number;
};
export type DeviceGeneralDetails = {
  supplier?: string;
  imsi?: string;
  phoneNumber?: string;
  simSerial?: string;
  simTypeId?: number;
  orderNumber?: string;
};
export type DeviceConfigurationDto = Record<string, unknown>;
export type ImportResponse = { idList: string[] };

export const deviceKeys = {
  all: ['devices'] as const,
  lists: () => ['devices', 'list'] as const,
  list: (filter: DeviceListFilter) => ['devices', 'list', filter] as const,
  details: () => ['devices', 'detail'] as const,
  detail: (id: string) => ['devices', 'detail', id] as const,
  bySerial: (serial: string) => ['devices', 'by-serial', serial] as const,
  byIds: (ids: readonly string[]) => ['devices', 'by-ids', ids] as const,
  bySerials: (serials: readonly string[]) => ['devices', 'by-serials', serials] as const,
  configuration: (id: string) => ['devices', 'configuration', id] as const,
  types: () => ['devices', 'lookup', 'types'] as const,
  simTypes: () => ['devices', 'lookup', 'sim-types'] as const,
  statuses: () => ['devices', 'lookup', 'statuses'] as const,
  lastConfigFilters: () => ['devices', 'lookup', 'last-config-filters'] as const,
};

// ---- lookups (never refetched on focus: spec §7)
const LOOKUP = { staleTime: Infinity, refetchOnWindowFocus: false } as const;
export const deviceTypesQuery = () =>
  queryOptions({ queryKey: deviceKeys.types(), queryFn: ({ signal }) => http<DeviceTypeDto[]>('/api/v1/device/get-types', { signal }), ...LOOKUP });
export const simTypesQuery = () =>
  queryOptions({ queryKey: deviceKeys.simTypes(), queryFn: ({ signal }) => http<LookupDto[]>('/api/v1/device/get-sim-types', { signal }), ...LOOKUP });
export const assetStatusesQuery = () =>
  queryOptions({ queryKey: deviceKeys.statuses(), queryFn: ({ signal }) => http<LookupDto[]>('/api/v1/device/get-asset-statuses', { signal }), ...LOOKUP });
export const lastConfigFiltersQuery = () =>
  queryOptions({
    queryKey: deviceKeys.lastConfigFilters(),
    queryFn: ({ signal }) => http<LookupDto[]>('/api/v1/device/get-last-config-filters', { signal }),
    ...LOOKUP,
  });

// ---- devices
/** POST api/v1/device/get-list — the previous page stays on screen while the next loads. */
export const deviceListQuery = (filter: DeviceListFilter) =>
  queryOptions({
    queryKey: deviceKeys.list(filter),
    queryFn: ({ signal }) => http<DeviceList>('/api/v1/device/get-list', { method: 'POST', body: filter, signal }),
    placeholderData: keepPreviousData,
    meta: { silent: true }, // the list shows its own error state
  });

/** GET /api/v1/device/get-by-id?id= */
export const deviceDetailQuery = (id: string) =>
  queryOptions({
    queryKey: deviceKeys.detail(id),
    queryFn: ({ signal }) => http<DeviceDto>('/api/v1/device/get-by-id', { signal, query: { id } }),
    meta: { silent: true },
  });

/** GET /api/v1/device/get-by-serial?serial= */
export const getDeviceBySerial = (serial: string, signal?: AbortSignal) => http<DeviceDto>('/api/v1/device/get-by-serial', { signal, query: { serial } });

/** POST api/v1/device/get-list-by-ids */
export const getDevicesByIds = (ids: readonly string[], signal?: AbortSignal) =>
  http<DeviceDto[]>('/api/v1/device/get-list-by-ids', { method: 'POST', body: { ids }, signal });

/** POST /api/v1/device/get-list-by-serials — unknown serials come back as placeholders. */
export const getDevicesBySerials = (serials: readonly string[], signal?: AbortSignal) =>
  http<DeviceDto[]>('/api/v1/device/get-list-by-serials', { method: 'POST', body: { serials }, signal });

/** PUT api/v1/device/{deviceId}/general-details — a stale etag answers 409. */
export const updateDeviceGeneralDetails = (id: string, etag: string, generalDetails: DeviceGeneralDetails) =>
  http<{ etag: string }>(`/api/v1/device/${encodeURIComponent(id)}/general-details`, { method: 'PUT', body: { etag, generalDetails } });

/** PUT /api/v1/device/change-status-many */
export const changeStatusMany = (status: number, devices: { id: string; etag: string }[]) =>
  http<unknown>('/api/v1/device/change-status-many', { method: 'PUT', body: { status, devices } });

/** PUT /api/v1/device/change-order-number-many */
export const changeOrderNumberMany = (orderNumber: string, devices: { id: string; etag: string }[]) =>
  http<unknown>('/api/v1/device/change-order-number-many', { method: 'PUT', body: { orderNumber, devices } });

/** PUT /api/v1/device/change-device-type */
export const changeDeviceType = (serials: readonly string[], newDeviceType: number) =>
  http<unknown>('/api/v1/device/change-device-type', { method: 'PUT', body: { serials, newDeviceType } });

/** POST api/v1/import/devices (multipart, field File) → idList. */
export const importDevices = (file: File) => {
  const form = new FormData();
  form.append('File', file);
  return http<ImportResponse>('/api/v1/import/devices', { method: 'POST', body: form });
};

/** POST /api/v1/device/export/list-with-filters → .xlsx blob. */
export const exportDevicesWithFilters = (filter: DeviceListFilter, signal?: AbortSignal) =>
  http<Blob>('/api/v1/device/export/list-with-filters', { method: 'POST', body: filter, responseType: 'blob', signal });

/** POST /api/v1/device/export/list-by-ids → .xlsx blob. */
export const exportDevicesByIds = (ids: readonly string[], signal?: AbortSignal) =>
  http<Blob>('/api/v1/device/export/list-by-ids', { method: 'POST', body: { ids }, responseType: 'blob', signal });

/** After an update the cached device and its list rows change in place (new etag, no refetch). */
export function patchDeviceInCache(qc: QueryClient, id: string, patch: Partial<DeviceDto> & { etag: string }) {
  qc.setQueryData<DeviceDto>(deviceKeys.detail(id), (old) => (old ? { ...old, ...patch } : old));
  qc.setQueriesData<DeviceList>({ queryKey: deviceKeys.lists() }, (old) =>
    old ? { ...old, devices: old.devices.map((d) => (d.id === id ? { ...d, ...patch } : d)) } : old,
  );
}

/** Saves a blob under a name (label plus timestamp, spec §9). */
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
