// Customer calls, spec document 2 §7 (customer/query service and the customer part of the stock
// service): request functions and one queryOptions factory per GET-ish endpoint under hierarchical
// keys (['customers', 'list', filter], ['customers', 'details', id] ...). The answer and input
// types, rules and error answers are the contract's (src/shared/schemas/customers.ts).
import { exportHeaders, type ExportCall } from './exports';
import { queryOptions } from '@tanstack/react-query';
import { http } from './http';
import { isValidId } from '../../shared/codes';
import type { LookupDto } from '../../shared/schemas/reference';
import type { BulkChangeResponse, DeviceList, DeviceMany } from '../../shared/schemas/devices';
import type { CreatedResponse, EtagResponse } from '../../shared/schemas/common';
import type {
  AllocateManyInput,
  CrmAccount,
  CustomerAdminList,
  CustomerCreated,
  CustomerCreateInput,
  CustomerDetails,
  CustomerDeviceListFilter,
  CustomerDto,
  CustomerDuplicates,
  CustomerFilters,
  CustomerList,
  CustomerListFilter,
  CustomerPayloadInput,
  CustomerSettings,
  CustomerSettingsFlags,
  CustomerSubscriptions,
  EmailBacklog,
  SubscriptionsUpdateInput,
} from '../../shared/schemas/customers';
import { listQuery, lookupQuery, recordQuery } from './queries';

// the customers contract's types, for the pages that call these
export type * from '../../shared/schemas/customers';

export type CustomerAdminListParams = {
  tenantId: string;
  page?: number;
  pageSize?: number;
  desc?: boolean;
  orderBy?: 'UserName' | 'FirstName' | 'LastName' | 'Email';
};
export type DuplicateParams = { name?: string; portalReferenceNumber?: string; salesforceUrn?: string };

export const customerKeys = {
  all: ['customers'] as const,
  lists: () => ['customers', 'list'] as const,
  list: (filter: CustomerListFilter) => ['customers', 'list', filter] as const,
  /** Everything of one customer (invalidate after a change: details, subscriptions, settings, devices, admins). */
  customer: (id: string) => ['customers', 'customer', id] as const,
  byId: (id: string) => ['customers', 'customer', id, 'summary'] as const,
  details: (id: string) => ['customers', 'customer', id, 'details'] as const,
  subscriptions: (id: string) => ['customers', 'customer', id, 'subscriptions'] as const,
  settings: (id: string) => ['customers', 'customer', id, 'settings'] as const,
  devices: (id: string, filter: CustomerDeviceListFilter) => ['customers', 'customer', id, 'devices', filter] as const,
  admins: (params: CustomerAdminListParams) => ['customers', 'admins', params.tenantId, params] as const,
  backlog: (tenantId: string) => ['customers', 'email-backlog', tenantId] as const,
  duplicates: (params: DuplicateParams) => ['customers', 'duplicates', params] as const,
  crm: (query: string) => ['customers', 'crm', query] as const,
  filters: () => ['customers', 'lookup', 'filters'] as const,
  tierTypes: () => ['customers', 'lookup', 'tier-types'] as const,
  statuses: () => ['customers', 'lookup', 'statuses'] as const,
};

// ---- lookups (never refetched on focus: spec §7)
/** GET ps-admin/customers/filters-all → { Tiers, Statuses } */
export const customerFiltersQuery = () => lookupQuery<CustomerFilters>(customerKeys.filters(), '/ps-admin/customers/filters-all');
/** GET /api/v1/customer/get-tier-types */
export const tierTypesQuery = () => lookupQuery<LookupDto[]>(customerKeys.tierTypes(), '/api/v1/customer/get-tier-types');
/** GET /api/v1/customer/get-statuses */
export const customerStatusesQuery = () => lookupQuery<LookupDto[]>(customerKeys.statuses(), '/api/v1/customer/get-statuses');

// ---- list and one customer
/** POST api/v1/customer/get-list — the previous page stays on screen while the next loads. */
export const customerListQuery = (filter: CustomerListFilter) =>
  listQuery(customerKeys.list(filter), (signal) => http<CustomerList>('/api/v1/customer/get-list', { method: 'POST', body: filter, signal }));

/** GET /api/v1/customer/get-by-id?id= — runs only with a valid id (spec §5). */
export const customerByIdQuery = (id: string) =>
  recordQuery(customerKeys.byId(id), id, (signal) => http<CustomerDto>('/api/v1/customer/get-by-id', { signal, query: { id } }));

/** GET ps-admin/customers/get-details?CustomerId= */
export const customerDetailsQuery = (id: string) =>
  recordQuery(customerKeys.details(id), id, (signal) => http<CustomerDetails>('/ps-admin/customers/get-details', { signal, query: { CustomerId: id } }));

/** GET ps-admin/customers/get-subscriptions?CustomerId= */
export const customerSubscriptionsQuery = (id: string) => recordQuery(customerKeys.subscriptions(id), id, (signal) => getCustomerSubscriptions(id, signal));
/** The same request outside a query: the fresh etag fetch before saving subscriptions (spec §4). */
export const getCustomerSubscriptions = (id: string, signal?: AbortSignal) =>
  http<CustomerSubscriptions>('/ps-admin/customers/get-subscriptions', { signal, query: { CustomerId: id } });

/** GET ps-admin/customers/get-settings?CustomerId= */
export const customerSettingsQuery = (id: string) =>
  recordQuery(customerKeys.settings(id), id, (signal) => http<CustomerSettings>('/ps-admin/customers/get-settings', { signal, query: { CustomerId: id } }));

/** POST /api/v1/customer/get-device-list/{customerId} — the asset list's filter body. */
export const customerDeviceListQuery = (id: string, filter: CustomerDeviceListFilter) =>
  listQuery(
    customerKeys.devices(id, filter),
    (signal) => http<DeviceList>(`/api/v1/customer/get-device-list/${encodeURIComponent(id)}`, { method: 'POST', body: filter, signal }),
    isValidId(id),
  );

/** GET ps-admin/persons/get-customer-admin-list — page size 10, UserName descending by default (spec §9). */
export const customerAdminListQuery = (params: CustomerAdminListParams) =>
  listQuery(
    customerKeys.admins(params),
    (signal) =>
      http<CustomerAdminList>('/ps-admin/persons/get-customer-admin-list', {
        signal,
        query: {
          TenantId: params.tenantId,
          Page: params.page ?? 1,
          PageSize: params.pageSize ?? 10,
          Desc: params.desc ?? true,
          OrderBy: params.orderBy ?? 'UserName',
        },
      }),
    isValidId(params.tenantId),
  );

/** GET ps-admin/emails/get-backlog-count?TenantId= → { count } of e-mails held while delivery is paused. */
export const emailBacklogQuery = (tenantId: string) => recordQuery(customerKeys.backlog(tenantId), tenantId, (signal) => getEmailBacklog(tenantId, signal));
export const getEmailBacklog = (tenantId: string, signal?: AbortSignal) =>
  http<EmailBacklog>('/ps-admin/emails/get-backlog-count', { signal, query: { TenantId: tenantId } });

/** GET ps-admin/customers/get-duplicates (spec §5: run before create). */
export const customerDuplicatesQuery = (params: DuplicateParams) =>
  queryOptions({
    queryKey: customerKeys.duplicates(params),
    queryFn: ({ signal }) => getCustomerDuplicates(params, signal),
    staleTime: 0,
    meta: { silent: true },
  });
export const getCustomerDuplicates = (params: DuplicateParams, signal?: AbortSignal) =>
  http<CustomerDuplicates>('/ps-admin/customers/get-duplicates', {
    signal,
    query: { Name: params.name ?? '', PortalReferenceNumber: params.portalReferenceNumber ?? '', SalesforceUrn: params.salesforceUrn ?? '' },
  });

/** POST /api/v1/salesforce/account/query { query } — the page debounces the text by CRM_DEBOUNCE_MS (600 ms). */
export const crmAccountsQuery = (query: string) =>
  queryOptions({
    queryKey: customerKeys.crm(query),
    queryFn: ({ signal }) => http<CrmAccount[]>('/api/v1/salesforce/account/query', { method: 'POST', body: { query }, signal }),
    enabled: query.trim().length > 0,
    staleTime: 60_000,
    meta: { silent: true },
  });

// ---- changes
/** POST /api/v1/customer/create → { Id, Etag, TenantId } (201). `administrator` (optional) adds the first administrator in the same step. */
export const createCustomer = (body: CustomerCreateInput) => http<CustomerCreated>('/api/v1/customer/create', { method: 'POST', body });

/** PUT /api/v1/customer/update?customerId= { customerAccount, etag } → { Etag }; a stale etag answers 409. */
export const updateCustomer = (id: string, customerAccount: CustomerPayloadInput, etag: string) =>
  http<EtagResponse>('/api/v1/customer/update', { method: 'PUT', query: { customerId: id }, body: { customerAccount, etag } });

/** PUT /api/v1/customer/subscriptions/update?customerId= → the subscriptions with the new etags. */
export const updateCustomerSubscriptions = (id: string, body: SubscriptionsUpdateInput) =>
  http<CustomerSubscriptions>('/api/v1/customer/subscriptions/update', { method: 'PUT', query: { customerId: id }, body });

/** PUT /api/v1/customer/settings/update?customerId= { customerEtag, settings } → the settings with the new etag. */
export const updateCustomerSettings = (id: string, customerEtag: string, settings: CustomerSettingsFlags) =>
  http<CustomerSettings>('/api/v1/customer/settings/update', { method: 'PUT', query: { customerId: id }, body: { customerEtag, settings } });

/**
 * POST /api/v1/person with the tenant-id header: a customer administrator. roleIds are the
 * dictionaries' AdminRole and PortalUserRole ids ('Can't add administrator, please try again
 * later.' when the dictionaries are missing).
 */
export const addCustomerAdministrator = (tenantId: string, person: { firstName: string; lastName: string; emailAddress: string; roleIds: string[] }) =>
  http<CreatedResponse>('/api/v1/person', { method: 'POST', headers: { 'tenant-id': tenantId }, body: { person } });

/** POST api/v1/import/devices-to-allocate/{customerId} (multipart, field File) → the devices, placeholders for unknown serials. */
export const importDevicesToAllocate = (id: string, file: File, o: ExportCall = {}) => {
  const form = new FormData();
  form.append('File', file);
  return http<DeviceMany>(`/api/v1/import/devices-to-allocate/${encodeURIComponent(id)}`, {
    method: 'POST',
    body: form,
    headers: exportHeaders(o),
    signal: o.signal,
  });
};

/** POST /api/v1/device/allocate-many — all or nothing; 422 allocation_exceeds_subscription unless force. */
export const allocateDevices = (body: AllocateManyInput) => http<BulkChangeResponse>('/api/v1/device/allocate-many', { method: 'POST', body });

/** POST /api/v1/customer/export/list-with-filters → an .xlsx of every customer matching the filters. */
export const exportCustomersWithFilters = (filter: Omit<CustomerListFilter, 'page' | 'pageSize'>, o: ExportCall = {}) =>
  http<Blob>('/api/v1/customer/export/list-with-filters', { method: 'POST', body: filter, responseType: 'blob', signal: o.signal, headers: exportHeaders(o) });

/** POST /api/v1/customer/export/device-list/{customerId} → an .xlsx of the customer's devices matching the filters. */
export const exportCustomerDevices = (id: string, filter: Omit<CustomerDeviceListFilter, 'page' | 'pageSize'>, o: ExportCall = {}) =>
  http<Blob>(`/api/v1/customer/export/device-list/${encodeURIComponent(id)}`, {
    method: 'POST',
    body: filter,
    responseType: 'blob',
    signal: o.signal,
    headers: exportHeaders(o),
  });
