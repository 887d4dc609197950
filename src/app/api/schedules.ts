// Scheduled reports calls (docs/scheduled-reports.md). Keys under ['schedules', ...]: the list,
// and each schedule's run history; a write refreshes the list (and the audit trail).
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { http } from './http';
import { adminKeys } from './admin';
import type { MessageResponse } from '../../shared/schemas/common';
import type { ScheduleDto, ScheduleInput, ScheduleListDto, ScheduleRunsDto } from '../../shared/schemas/schedules';

export const scheduleKeys = {
  all: ['schedules'] as const,
  list: () => ['schedules', 'list'] as const,
  runs: (id: string) => ['schedules', 'runs', id] as const,
};

export const scheduleListQuery = () =>
  queryOptions({
    queryKey: scheduleKeys.list(),
    queryFn: ({ signal }) => http<ScheduleListDto>('/alarm-report/schedules', { signal }),
    refetchInterval: 30_000,
  });

export const scheduleRunsQuery = (id: string) =>
  queryOptions({
    queryKey: scheduleKeys.runs(id),
    queryFn: ({ signal }) => http<ScheduleRunsDto>(`/alarm-report/schedules/${encodeURIComponent(id)}/runs`, { signal }),
  });

export const createSchedule = (body: ScheduleInput) => http<ScheduleDto>('/alarm-report/schedules', { method: 'POST', body });
export const updateSchedule = (id: string, body: ScheduleInput & { etag: string }) =>
  http<ScheduleDto>(`/alarm-report/schedules/${encodeURIComponent(id)}`, { method: 'PUT', body });
export const pauseSchedule = (id: string, paused: boolean) =>
  http<ScheduleDto>(`/alarm-report/schedules/${encodeURIComponent(id)}/pause`, { method: 'PUT', body: { paused } });
export const deleteSchedule = (id: string) => http<MessageResponse>(`/alarm-report/schedules/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** After a write: the list, the run histories and the audit trail. */
export async function afterScheduleChange(qc: QueryClient) {
  await Promise.all([qc.invalidateQueries({ queryKey: scheduleKeys.all }), qc.invalidateQueries({ queryKey: adminKeys.audit() })]);
}
