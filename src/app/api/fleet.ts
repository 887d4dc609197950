// Fleet health calls: the counts and customers of the Fleet Health page, and the thresholds (the
// provider's in Provider Settings, a customer's override in its Settings tab); the usage report of
// a customer and its export. Keys under ['fleet', ...]; a threshold change refreshes the counts.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { http } from './http';
import { exportHeaders, type ExportCall } from './exports';
import type { UsageReport, UsageReportParams } from '../../shared/schemas/usage-report';
import type { MessageResponse } from '../../shared/schemas/common';
import type { FilterDef } from '../ui/filter-bar';
import { FLEET_CATEGORIES, FLEET_CATEGORY_LABELS } from '../../shared/schemas/fleet';
import type { CustomerThresholdsDto, FleetHealthDto, FleetOverride, FleetThresholds, ProviderThresholdsDto } from '../../shared/schemas/fleet';

export const fleetKeys = {
  all: ['fleet'] as const,
  health: () => ['fleet', 'health'] as const,
  thresholds: () => ['fleet', 'thresholds'] as const,
  providerThresholds: () => ['fleet', 'thresholds', 'provider'] as const,
  customerThresholds: (customerId: string) => ['fleet', 'thresholds', 'customer', customerId] as const,
};

export const fleetHealthQuery = () =>
  queryOptions({ queryKey: fleetKeys.health(), queryFn: ({ signal }) => http<FleetHealthDto>('/ps-admin/fleet-health', { signal }), refetchInterval: 60_000 });

export const providerThresholdsQuery = () =>
  queryOptions({
    queryKey: fleetKeys.providerThresholds(),
    queryFn: ({ signal }) => http<ProviderThresholdsDto>('/ps-admin/fleet-health/thresholds', { signal }),
  });

export const customerThresholdsQuery = (customerId: string) =>
  queryOptions({
    queryKey: fleetKeys.customerThresholds(customerId),
    queryFn: ({ signal }) => http<CustomerThresholdsDto>('/ps-admin/customers/fleet-thresholds', { query: { customerId }, signal }),
  });

export async function saveProviderThresholds(qc: QueryClient, values: FleetThresholds) {
  const r = await http<MessageResponse>('/ps-admin/fleet-health/thresholds', { method: 'PUT', body: values });
  await qc.invalidateQueries({ queryKey: fleetKeys.all });
  return r;
}

export async function saveCustomerThresholds(qc: QueryClient, customerId: string, values: FleetOverride) {
  const r = await http<MessageResponse>('/ps-admin/customers/fleet-thresholds', { method: 'PUT', body: { customerId, ...values } });
  await qc.invalidateQueries({ queryKey: fleetKeys.all });
  return r;
}

/** The device lists' Fleet health filter (id `fleet`, read by deviceListFilterOf): Fleet Health's counts open the lists with it. */
export const FLEET_FILTER: FilterDef = {
  id: 'fleet',
  type: 'dropdown',
  label: 'Fleet health',
  placeholder: 'All',
  options: FLEET_CATEGORIES.map((c) => ({ value: c, label: FLEET_CATEGORY_LABELS[c] })),
};

// ---------------------------------------------------------------- the usage report of a customer

export const usageKeys = {
  all: ['fleet', 'usage-report'] as const,
  report: (p: UsageReportParams) => ['fleet', 'usage-report', p] as const,
};

/** GET /ps-admin/customers/usage-report — the customer's report for a London month. */
export const usageReportQuery = (p: UsageReportParams) =>
  queryOptions({
    queryKey: usageKeys.report(p),
    queryFn: ({ signal }) => http<UsageReport>('/ps-admin/customers/usage-report', { query: p, signal }),
  });

/** POST /ps-admin/customers/usage-report/export → the report's rows as an .xlsx (an export job). */
export const exportUsageReport = (p: UsageReportParams, o: ExportCall = {}) =>
  http<Blob>('/ps-admin/customers/usage-report/export', { method: 'POST', body: p, responseType: 'blob', signal: o.signal, headers: exportHeaders(o) });
