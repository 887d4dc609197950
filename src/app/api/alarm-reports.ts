// Alarm report calls, spec document 3 §7: one queryOptions factory per GET-ish endpoint under
// hierarchical keys (['alarm-reports', kind, params]) and the mutations (add note, escalation
// plan followed, log call download, export). Answer and input types are the contract's
// (src/shared/schemas/alarm-reports.ts), re-exported for the pages. List-shaped queries are not
// refetched on window focus (spec §7).
import { exportHeaders, type ExportCall } from './exports';
import { keepPreviousData, queryOptions, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { http } from './http';
import type { ControllerDto, LookupDto } from '../../shared/schemas/reference';
import {
  isSecondLine,
  type AddNoteBody,
  type AlarmCallDto,
  type AlarmNoteDto,
  type AlarmReportDetails,
  type AlarmReportExportFilter,
  type AlarmReportFilter,
  type AlarmReportList,
  type AlarmReportListFilter,
  type AlarmReportRow,
  type LogCallDownloadBody,
  type ResponseTargets,
  type ResponseTargetsFilter,
  type TimeFrames,
  type TypeTimeFrames,
  type UpdateAlarmReportBody,
  type UpdateAlarmReportResponse,
} from '../../shared/schemas/alarm-reports';
import type { MessageResponse } from '../../shared/schemas/common';
import type { AnalysisResponse, GenerateAnalysisBody } from '../../shared/schemas/alarm-intelligence';
import type { ManagementReport } from '../../shared/schemas/management-report';
import { lookupQuery, recordListKeys, recordQuery } from './queries';

export type {
  AlarmCallDto,
  AlarmNoteDto,
  AlarmReportDetails,
  AlarmReportExportFilter,
  AlarmReportFilter,
  AlarmReportList,
  AlarmReportListFilter,
  AlarmReportRow,
  ResponseTargets,
  ResponseTargetsFilter,
  TimeFrames,
  TypeTimeFrames,
  AnalysisResponse,
};

export const alarmReportKeys = {
  ...recordListKeys<AlarmReportListFilter>('alarm-reports'),
  dateRangeOptions: () => ['alarm-reports', 'lookup', 'date-range-options'] as const,
  alarmTypes: () => ['alarm-reports', 'lookup', 'alarm-types'] as const,
  verificationTypes: () => ['alarm-reports', 'lookup', 'verification-types'] as const,
  verificationCategories: () => ['alarm-reports', 'lookup', 'verification-categories'] as const,
  controllers: () => ['alarm-reports', 'lookup', 'controllers'] as const,
  started: (filter: AlarmReportFilter) => ['alarm-reports', 'verification-started', filter] as const,
  completed: (filter: AlarmReportFilter) => ['alarm-reports', 'verification-completed', filter] as const,
  types: (filter: AlarmReportFilter) => ['alarm-reports', 'verification-type', filter] as const,
  responseTargets: (filter: ResponseTargetsFilter) => ['alarm-reports', 'response-targets', filter] as const,
  analysis: (alarmReportId: string) => ['alarm-reports', 'analysis', alarmReportId] as const,
  alarmLineRecording: (p: RecordingParams) => ['alarm-reports', 'alarm-line-recording', p] as const,
  secondLineRecording: (p: RecordingParams) => ['alarm-reports', 'second-line-recording', p] as const,
  voiceMemo: (p: VoiceMemoParams) => ['alarm-reports', 'voice-memo', p] as const,
  managementReport: (p: ManagementReportParams) => ['alarm-reports', 'management-report', p] as const,
};

// ---- lookups (never refetched on focus)
export const dateRangeOptionsQuery = () => lookupQuery<LookupDto[]>(alarmReportKeys.dateRangeOptions(), '/alarm-report/get-date-rage-options');
export const alarmTypesQuery = () => lookupQuery<LookupDto[]>(alarmReportKeys.alarmTypes(), '/alarm-report/get-alarm-types');
export const verificationTypesQuery = () => lookupQuery<LookupDto[]>(alarmReportKeys.verificationTypes(), '/alarm-report/get-verification-types');
export const verificationCategoriesQuery = () =>
  lookupQuery<LookupDto[]>(alarmReportKeys.verificationCategories(), '/alarm-report/get-verification-categories');
export const controllersQuery = () => lookupQuery<ControllerDto[]>(alarmReportKeys.controllers(), '/alarm-report/get-controllers');
// The tier filter's lookup is customers' tierTypesQuery (./customers): one factory per endpoint.

// ---- list and charts
const LIST = { refetchOnWindowFocus: false, meta: { silent: true } } as const; // the page shows 'Report generation failed.'
/** A POSTed list or chart of the filtered alarm reports: the previous answer stays on screen while the next loads. */
const reportQuery = <T>(queryKey: QueryKey, path: string, body: unknown) =>
  queryOptions({ queryKey, queryFn: ({ signal }) => http<T>(path, { method: 'POST', body, signal }), placeholderData: keepPreviousData, ...LIST });

/** POST alarm-report/get-list — the previous page stays on screen while the next loads. */
export const alarmReportListQuery = (filter: AlarmReportListFilter) =>
  reportQuery<AlarmReportList>(alarmReportKeys.list(filter), '/alarm-report/get-list', filter);

/** Timeframe queries take the list filters without page, pageSize and sorting (pass them and they are dropped from the key). */
export const chartFilter = (f: AlarmReportListFilter): AlarmReportFilter => {
  const { page: _p, pageSize: _s, sortBy: _b, sortDescending: _d, ...rest } = f;
  return rest;
};

/** POST alarm-report/get-verification-started-timeframes — under 10 s, 10-40 s, over 40 s. */
export const verificationStartedQuery = (filter: AlarmReportFilter) =>
  reportQuery<TimeFrames>(alarmReportKeys.started(filter), '/alarm-report/get-verification-started-timeframes', filter);

/** POST alarm-report/get-verification-completed-timeframes — under 120 s, 120-180 s, 180-600 s, over 600 s. */
export const verificationCompletedQuery = (filter: AlarmReportFilter) =>
  reportQuery<TimeFrames>(alarmReportKeys.completed(filter), '/alarm-report/get-verification-completed-timeframes', filter);

/**
 * POST alarm-report/get-verification-type-timeframes — Type of Alarms over time. Disabled for the
 * 'All Time' option (7): spec §4 skips the call.
 */
export const verificationTypeTimeFramesQuery = (filter: AlarmReportFilter) =>
  queryOptions({
    queryKey: alarmReportKeys.types(filter),
    queryFn: ({ signal }) => http<TypeTimeFrames>('/alarm-report/get-verification-type-timeframes', { method: 'POST', body: filter, signal }),
    enabled: filter.alarmClosedDateRangeOption !== 7,
    ...LIST,
  });

/** POST /alarm-report/get-response-targets (ours) — within 10 s / 40 s against the targets, and the alarms that missed. */
export const responseTargetsQuery = (filter: ResponseTargetsFilter) =>
  reportQuery<ResponseTargets>(alarmReportKeys.responseTargets(filter), '/alarm-report/get-response-targets', filter);

// ---- detail

/** GET alarm-report/get-details?AlarmId= */
export const alarmReportDetailsQuery = (alarmId: string) =>
  recordQuery(alarmReportKeys.detail(alarmId), alarmId, (signal) =>
    http<AlarmReportDetails>('/alarm-report/get-details', { signal, query: { AlarmId: alarmId } }),
  );

/** GET alarm-report/get-analysis?AlarmReportId= — { Enabled, Analysis }; Enabled false: no Analysis section. */
export const alarmReportAnalysisQuery = (alarmReportId: string) =>
  recordQuery(alarmReportKeys.analysis(alarmReportId), alarmReportId, (signal) =>
    http<AnalysisResponse>('/alarm-report/get-analysis', { signal, query: { AlarmReportId: alarmReportId } }),
  );

/** POST alarm-report/generate-analysis — generates and stores the Analysis (AddNote); 403 when intelligence is off. */
export const generateAlarmReportAnalysis = (body: GenerateAnalysisBody) => http<AnalysisResponse>('/alarm-report/generate-analysis', { method: 'POST', body });

/** One customer's (customerId) or every customer's (null) management report of a London month ('YYYY-MM'). */
export type ManagementReportParams = { month: string; customerId: string | null };
export type { ManagementReport };

/** POST alarm-report/get-management-report — 403 when the feature ExportManagementReportPDF is off (the page says so). */
export const managementReportQuery = (p: ManagementReportParams) =>
  queryOptions({
    queryKey: alarmReportKeys.managementReport(p),
    queryFn: ({ signal }) => http<ManagementReport>('/alarm-report/get-management-report', { method: 'POST', body: p, signal }),
    refetchOnWindowFocus: false,
    meta: { silent: true },
  });

/** POST alarm-report/add-note → the created note ('Additional note added.'). Blank: 400 'Please enter note text.' */
export const addAlarmReportNote = (body: AddNoteBody) => http<AlarmNoteDto>('/alarm-report/add-note', { method: 'POST', body });

/** PUT alarm-report/update — escalation plan followed; needs the report's Etag (stale: 409). 'Escalation plan followed updated.' */
export const updateEscalationPlanFollowed = (body: UpdateAlarmReportBody) => http<UpdateAlarmReportResponse>('/alarm-report/update', { method: 'PUT', body });

/** POST alarm-report/log-call-download — call after a recording was saved ('Call recording downloaded.'). */
export const logCallDownload = (body: LogCallDownloadBody) => http<MessageResponse>('/alarm-report/log-call-download', { method: 'POST', body });

/** POST alarm-report/export-list → an .xlsx of every alarm report matching the filters (save with saveBlob from ./devices). */
export const exportAlarmReports = (filter: AlarmReportExportFilter, o: ExportCall = {}) =>
  http<Blob>('/alarm-report/export-list', { method: 'POST', body: filter, responseType: 'blob', signal: o.signal, headers: exportHeaders(o) });

/** Puts a new note into the cached detail (no refetch); a note already there (by its Id) is not added twice. */
export function addNoteToCache(qc: QueryClient, alarmId: string, note: AlarmNoteDto) {
  qc.setQueryData<AlarmReportDetails>(alarmReportKeys.detail(alarmId), (old) =>
    old && !old.ActivityJournal.AdditionalNoteList.some((n) => n.Id === note.Id)
      ? { ...old, ActivityJournal: { ...old.ActivityJournal, AdditionalNoteList: [...old.ActivityJournal.AdditionalNoteList, note] } }
      : old,
  );
}
/** Puts the update's answer (flag and new Etag) into the cached detail. */
export function patchEscalationInCache(qc: QueryClient, alarmId: string, r: UpdateAlarmReportResponse) {
  qc.setQueryData<AlarmReportDetails>(alarmReportKeys.detail(alarmId), (old) =>
    old ? { ...old, Etag: r.Etag, EscalationPlanFollowed: r.EscalationPlanFollowed } : old,
  );
}

// ---- audio (blobs; the <audio> element plays an object URL of the blob)

/** RecordSId: the record's SId; Id: the call's Id. */
export type RecordingParams = { RecordSId: string; ConferenceName: string; Id: string };
export type VoiceMemoParams = { PersonId: string; MemoId: string };
const AUDIO = { staleTime: Infinity, gcTime: 5 * 60_000, retry: false, meta: { silent: true } } as const;

/** GET /api/v1/alarm-line/get-record-file — recordings of Alarm and Covert Call lines (audio/wav). */
export const alarmLineRecordingQuery = (p: RecordingParams) =>
  queryOptions({
    queryKey: alarmReportKeys.alarmLineRecording(p),
    queryFn: ({ signal }) => http<Blob>('/api/v1/alarm-line/get-record-file', { signal, query: p, responseType: 'blob' }),
    ...AUDIO,
  });
/** GET /api/v1/second-line/get-record-file — recordings of Outbound / Inbound Second Line calls (audio/wav). */
export const secondLineRecordingQuery = (p: RecordingParams) =>
  queryOptions({
    queryKey: alarmReportKeys.secondLineRecording(p),
    queryFn: ({ signal }) => http<Blob>('/api/v1/second-line/get-record-file', { signal, query: p, responseType: 'blob' }),
    ...AUDIO,
  });
/** The recording query of one record of a call (picks the endpoint by the call's line). 404: 'Failed to fetch call recording.' */
export const recordingQueryForCall = (call: Pick<AlarmCallDto, 'Id' | 'Line' | 'ConferenceName'>, recordSId: string) => {
  const p: RecordingParams = { RecordSId: recordSId, ConferenceName: call.ConferenceName ?? '', Id: call.Id };
  return isSecondLine(call.Line) ? secondLineRecordingQuery(p) : alarmLineRecordingQuery(p);
};
/** GET /interactive-communication/portal/voice-memo/get-file — MemoId is the memo's VoiceMemoId. 404: 'Failed to fetch voice memo.' */
export const voiceMemoQuery = (p: VoiceMemoParams) =>
  queryOptions({
    queryKey: alarmReportKeys.voiceMemo(p),
    queryFn: ({ signal }) => http<Blob>('/interactive-communication/portal/voice-memo/get-file', { signal, query: p, responseType: 'blob' }),
    ...AUDIO,
  });
