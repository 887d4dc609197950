// Provider administration calls: the settings area, login methods and the audit trail. Keys under
// ['admin', ...]; a change also refreshes the reference data (features, global settings) every
// screen reads, so it takes effect at once in this browser and within the reference staleTime
// (or at the next window focus) in every other one.
import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { http } from './http';
import { exportHeaders, type ExportCall } from './exports';
import { referenceKeys } from './reference';
import { useCan } from '../state/session';
import { P } from '../../shared/permissions';
import type { AdminSettingsDto, AuditEntryDto, AuditListDto, AuditListRequest, FeatureName, LoginMethodDto } from '../../shared/schemas/admin';
import type { MessageResponse } from '../../shared/schemas/common';

export const adminKeys = {
  all: ['admin'] as const,
  settings: () => ['admin', 'settings'] as const,
  audit: () => ['admin', 'audit'] as const,
  auditList: (req: AuditListRequest) => ['admin', 'audit', 'list', req] as const,
  loginMethod: (personId: string) => ['admin', 'login-method', personId] as const,
};

export const loginMethodQuery = (personId: string) =>
  queryOptions({
    queryKey: adminKeys.loginMethod(personId),
    queryFn: ({ signal }) => http<LoginMethodDto>('/ps-admin/persons/get-login-method', { query: { id: personId }, signal }),
  });

export const adminSettingsQuery = () =>
  queryOptions({ queryKey: adminKeys.settings(), queryFn: ({ signal }) => http<AdminSettingsDto>('/ps-admin/settings', { signal }) });

export const auditListQuery = (req: AuditListRequest) =>
  queryOptions({
    queryKey: adminKeys.auditList(req),
    queryFn: ({ signal }) => http<AuditListDto>('/ps-admin/audit/get-list', { method: 'POST', body: req, signal }),
    placeholderData: keepPreviousData,
  });

/**
 * A record's History panel (src/app/ui/history-panel.tsx): the latest 25 audit entries for one
 * entity. Null for users who may not read the audit trail (no panel, no request).
 */
export function useRecordHistory(entity: string, entityId: string): { entries: AuditEntryDto[]; pending: boolean } | null {
  const can = useCan();
  const allowed = can(P.AuditView);
  const list = useQuery({ ...auditListQuery({ entity, entityId, pageNumber: 1, pageSize: 25 }), enabled: allowed && !!entityId });
  if (!allowed) return null;
  return { entries: list.data?.Items ?? [], pending: list.isPending };
}

export const setFeature = (name: FeatureName, isEnabled: boolean) =>
  http<MessageResponse>('/ps-admin/settings/feature', { method: 'PUT', body: { name, isEnabled } });
export const setTwoFactorMode = (value: 0 | 1) => http<MessageResponse>('/ps-admin/settings/two-factor-mode', { method: 'PUT', body: { value } });
export const addSsoDomain = (domain: string, customerId: string | null) =>
  http<MessageResponse>('/ps-admin/sso-domains', { method: 'POST', body: { domain, customerId } });
export const removeSsoDomain = (domain: string) => http<MessageResponse>('/ps-admin/sso-domains', { method: 'DELETE', query: { domain } });
export const setLoginMethod = (personId: string, loginMethod: 1 | 2, ssoEmail: string | null) =>
  http<MessageResponse>(`/api/v1/person/${encodeURIComponent(personId)}/login-method`, { method: 'PUT', body: { loginMethod, ssoEmail } });

/** After a settings change: the area, the reference data and the audit trail. */
export async function afterSettingsChange(qc: QueryClient) {
  await Promise.all([
    qc.invalidateQueries({ queryKey: adminKeys.settings() }),
    qc.invalidateQueries({ queryKey: referenceKeys.all }),
    qc.invalidateQueries({ queryKey: adminKeys.audit() }),
  ]);
}

/** POST /ps-admin/audit/export-list → an .xlsx of every audit entry matching the list's filters, newest first. */
export const exportAuditList = (filter: Omit<AuditListRequest, 'pageNumber' | 'pageSize'>, o: ExportCall = {}) =>
  http<Blob>('/ps-admin/audit/export-list', { method: 'POST', body: filter, responseType: 'blob', signal: o.signal, headers: exportHeaders(o) });
