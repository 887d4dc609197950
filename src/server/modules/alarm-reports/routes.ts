// Alarm report endpoints (spec document 3 §7): the list, the three chart timeframes, the response
// targets (ours), the detail document, notes, the escalation flag, call-download logging, the
// .xlsx export and the audio of call recordings and voice memos. The lookups are in
// modules/reference. Shapes, messages and bucket rules: src/shared/schemas/alarm-reports.ts.
// Permissions (spec §6): listing, charts and targets ListView; detail, audio and logging a
// download View; note and escalation flag AddNote (the edit permission); export Export.
import { deps, ApiError, conflict, found, notFound, type Api, type Ctx } from '../../http/api.js';
import { CODE, MSG } from '../../../shared/messages.js';
import { P, ROLE_LABELS, type RoleName } from '../../../shared/permissions.js';
import { audit, auditMany } from '../../platform/util.js';
import { tenantScope } from '../../auth/tenant-scope.js';
import { tx, type DB } from '../../db/index.js';
import {
  addNoteBody,
  ALARM_TEXT,
  alarmReportDetailsQuery,
  alarmReportExportBody,
  alarmReportFilterBody,
  alarmReportListBody,
  isSecondLine,
  logCallDownloadBody,
  recordFileQuery,
  responseTargetsBody,
  updateAlarmReportBody,
  voiceMemoFileQuery,
  type AlarmNoteDto,
  type AlarmReportDetails,
  type AlarmReportList,
  type ResponseTargets,
  type TimeFrames,
  type TypeTimeFrames,
  type UpdateAlarmReportResponse,
} from '../../../shared/schemas/alarm-reports.js';
import type { MessageResponse } from '../../../shared/schemas/common.js';
import {
  addNote,
  alarmReportDetails,
  rangeOf,
  findCall,
  findReportById,
  findVoiceMemo,
  listAlarmReports,
  parseRecords,
  responseTargets,
  setEscalationPlanFollowed,
  verificationCompleted,
  verificationStarted,
  verificationTypeTimeFrames,
} from './repo.js';
import { exportResponse } from '../../exports/routes.js';
import type { ExportPool } from '../../exports/pool.js';
import { EXPORT_LABEL } from '../../../shared/export-format.js';
import { audioResponse, readClip } from './audio.js';
import {
  analysisQuery,
  generateAnalysisBody,
  INTELLIGENCE_CODE,
  INTELLIGENCE_TEXT,
  type AnalysisResponse,
} from '../../../shared/schemas/alarm-intelligence.js';
import { generateAnalysis, intelligenceFeatureOn, intelligenceFor, readAnalysis } from './analysis.js';
import { MANAGEMENT_CODE, MANAGEMENT_TEXT, managementReportBody, type ManagementReport } from '../../../shared/schemas/management-report.js';
import { managementReport, managementReportOn } from './management-report.js';
import { IMPORT_SAMPLE, importAlarmReportsBody, type ImportAlarmReportsResponse } from '../../../shared/schemas/alarm-report-import.js';
import { importAlarmReports } from './write.js';
import type { Hub } from '../../realtime/hub.js';
import { scopedReader } from '../../realtime/records.js';

const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';
const SAMPLE_FILTER = {
  alarmTypes: [1],
  alarmClosedDateRangeOption: 2,
  alarmVerificationCategoryTypes: [101],
  alarmVerificationTypes: [1],
  searchValue: 'sample',
  arcControllerIds: [SAMPLE_ID],
  deviceTypes: [620],
  tierTypes: [1],
};
const reportNotFound = () => notFound(ALARM_TEXT.notFound);
/** The audit entry of a change the caller made to alarm report `id` (action 'alarmReport.<action>'). */
const auditReport = (db: DB, user: { id: string }, action: string, id: string, at: Date, details: unknown) =>
  audit(db, { actorId: user.id || null, action: `alarmReport.${action}`, entity: 'alarmReport', entityId: id, at, details });
const recordingFailed = () => new ApiError(404, MSG.callRecordingFailed, CODE.notFound);
const memoFailed = () => new ApiError(404, MSG.voiceMemoFailed, CODE.notFound);

/** The signed-in person as a note author: full name and role labels. */
async function author(c: Ctx, user: { id: string; email: string; role: string[] }) {
  const p = await deps(c).db.selectFrom('persons').select(['firstName', 'lastName']).where('id', '=', user.id).executeTakeFirst();
  const roles = user.role.map((r) => ROLE_LABELS[r as RoleName] ?? r);
  return { id: user.id, fullName: p ? `${p.firstName} ${p.lastName}`.trim() : user.email, roles };
}

/** Who may follow an alarm report live (its tab open): the detail read's permission and scoped look-up. */
export const alarmReportReader = scopedReader(P.AlarmReportView, findReportById);

export function alarmReportRoutes(api: Api, exports: ExportPool, hub: Hub) {
  api.post(
    '/alarm-report/get-list',
    {
      access: P.AlarmReportListView,
      json: alarmReportListBody,
      sample: { json: { page: 1, pageSize: 10, ...SAMPLE_FILTER, sortBy: 'AlarmClosedDate', sortDescending: true } },
    },
    async (c, { body, user }) => {
      const { db, config } = deps(c);
      return c.json((await listAlarmReports(db, tenantScope(user), body, config.now())) satisfies AlarmReportList);
    },
  );

  // The charts of the list's filters (no paging or sorting): each path with the figures it answers.
  const charts: [string, (...a: Parameters<typeof verificationStarted>) => Promise<TimeFrames | TypeTimeFrames>][] = [
    ['/alarm-report/get-verification-started-timeframes', verificationStarted],
    ['/alarm-report/get-verification-completed-timeframes', verificationCompleted],
    ['/alarm-report/get-verification-type-timeframes', verificationTypeTimeFrames],
  ];
  for (const [path, figures] of charts)
    api.post(path, { access: P.AlarmReportListView, json: alarmReportFilterBody, sample: { json: SAMPLE_FILTER } }, async (c, { body, user }) =>
      c.json(await figures(deps(c).db, tenantScope(user), body, deps(c).config.now())),
    );
  api.post(
    '/alarm-report/get-response-targets',
    {
      access: P.AlarmReportListView,
      json: responseTargetsBody,
      sample: { json: { ...SAMPLE_FILTER, targetWithin10Percent: 80, targetWithin40Percent: 98.5 } },
    },
    async (c, { body, user }) => c.json((await responseTargets(deps(c).db, tenantScope(user), body, deps(c).config.now())) satisfies ResponseTargets),
  );

  api.get(
    '/alarm-report/get-details',
    { access: P.AlarmReportView, query: alarmReportDetailsQuery, sample: { query: { AlarmId: SAMPLE_ID } } },
    async (c, { query, user }) => {
      return c.json(found(await alarmReportDetails(deps(c).db, tenantScope(user), query.AlarmId), reportNotFound) satisfies AlarmReportDetails);
    },
  );

  api.post(
    '/alarm-report/add-note',
    { access: P.AlarmReportAddNote, json: addNoteBody, sample: { json: { alarmReportId: SAMPLE_ID, note: 'Sample note' } } },
    async (c, { body, user }) => {
      const { db, config } = deps(c);
      if (!(await findReportById(db, tenantScope(user), body.alarmReportId))) throw reportNotFound();
      const now = config.now();
      const by = await author(c, user);
      const note = await tx(db, async (trx) => {
        const n = await addNote(trx, body.alarmReportId, body.note, by, now);
        await auditReport(trx, user, 'addNote', body.alarmReportId, now, { noteId: n.Id, note: body.note });
        return n;
      });
      await hub.recordsChanged(user, [{ kind: 'alarm-report', id: body.alarmReportId, what: 'note', note }], now);
      return c.json(note satisfies AlarmNoteDto);
    },
  );

  api.put(
    '/alarm-report/update',
    {
      access: P.AlarmReportAddNote,
      json: updateAlarmReportBody,
      sample: { json: { alarmReportId: SAMPLE_ID, escalationPlanFollowed: true, etag: '"sample"' } },
    },
    async (c, { body, user }) => {
      const { db, config } = deps(c);
      const report = await findReportById(db, tenantScope(user), body.alarmReportId);
      if (!report || (body.alarmId && body.alarmId !== report.alarmId)) throw reportNotFound();
      const r = await tx(db, async (trx) => {
        const etag = await setEscalationPlanFollowed(trx, body.alarmReportId, body.etag, body.escalationPlanFollowed);
        if (etag === 'missing') throw reportNotFound();
        if (etag === 'stale') throw conflict(ALARM_TEXT.stale);
        await auditReport(trx, user, 'escalationPlanFollowed', body.alarmReportId, config.now(), {
          before: { escalationPlanFollowed: report.escalationPlanFollowed === 1 },
          after: { escalationPlanFollowed: body.escalationPlanFollowed },
        });
        return etag;
      });
      await hub.recordsChanged(user, [{ kind: 'alarm-report', id: body.alarmReportId, what: 'change' }], config.now());
      return c.json({ Etag: r, EscalationPlanFollowed: body.escalationPlanFollowed } satisfies UpdateAlarmReportResponse);
    },
  );

  // Alarm report intelligence (docs/alarm-intelligence.md): view with View, generate with AddNote;
  // off for the report's customer (feature or setting): nothing shown, nothing generated.
  api.get(
    '/alarm-report/get-analysis',
    { access: P.AlarmReportView, query: analysisQuery, sample: { query: { AlarmReportId: SAMPLE_ID } } },
    async (c, { query, user }) => {
      const { db } = deps(c);
      const report = await findReportById(db, tenantScope(user), query.AlarmReportId);
      if (!report) throw reportNotFound();
      const { enabled } = await intelligenceFor(db, report.customerId);
      return c.json({ Enabled: enabled, Analysis: enabled ? await readAnalysis(db, report.id) : null } satisfies AnalysisResponse);
    },
  );
  api.post(
    '/alarm-report/generate-analysis',
    { access: P.AlarmReportAddNote, json: generateAnalysisBody, sample: { json: { alarmReportId: SAMPLE_ID } } },
    async (c, { body, user }) => {
      const { db, config } = deps(c);
      const report = await findReportById(db, tenantScope(user), body.alarmReportId);
      if (!report) throw reportNotFound();
      if (!(await intelligenceFor(db, report.customerId)).enabled) throw new ApiError(403, INTELLIGENCE_TEXT.disabled, INTELLIGENCE_CODE.disabled);
      const now = config.now();
      const by = (await author(c, user)).fullName;
      const analysis = await tx(db, async (trx) => {
        const a = await generateAnalysis(trx, report, now, by);
        if (!a) throw reportNotFound();
        await auditReport(trx, user, 'generateAnalysis', report.id, now, {
          generatedAt: a.GeneratedAt,
          anomalies: a.Anomalies.length,
          planCheck: a.PlanCheck?.Verdict ?? null,
        });
        return a;
      });
      await hub.recordsChanged(user, [{ kind: 'alarm-report', id: report.id, what: 'change' }], now);
      return c.json({ Enabled: true, Analysis: analysis } satisfies AnalysisResponse);
    },
  );

  // Closed alarm reports from the ARC platform (decisions "Closed alarm reports arrive through an import edge, in the
  // detail document's shape" and "At most 25 alarm reports per import request", docs/decisions/alarm-reports.md): a
  // batch of at most IMPORT_MAX in one transaction, idempotent by AlarmId, each report's Analysis generated on
  // arrival when auto-generation is on for its customer. Provider integration accounts only.
  api.post(
    '/alarm-report/import',
    { access: P.AlarmReportImport, bodyLimit: 'batch', json: importAlarmReportsBody, sample: { json: { AlarmReports: [IMPORT_SAMPLE] } } },
    async (c, { body, user }) => {
      const { db, config } = deps(c);
      const now = config.now();
      const result = await tx(db, async (trx) => {
        const r = await importAlarmReports(trx, tenantScope(user), body.AlarmReports, now);
        const analysed = new Set(r.Analysed);
        await auditMany(
          trx,
          { actorId: user.id || null, action: 'alarmReport.import', entity: 'alarmReport', at: now },
          r.Created.map((x) => ({
            entityId: x.AlarmReportId,
            details: { alarmId: x.AlarmId, customerId: body.AlarmReports[x.Index]!.CustomerId, analysed: analysed.has(x.AlarmReportId) },
          })),
        );
        return r;
      });
      return c.json(result satisfies ImportAlarmReportsResponse);
    },
  );

  // The monthly management report (docs/alarm-intelligence.md): a printable PDF, so the export
  // permission; the feature ExportManagementReportPDF off → 403 'feature_disabled'.
  api.post(
    '/alarm-report/get-management-report',
    { access: P.AlarmReportExport, json: managementReportBody, sample: { json: { month: '2026-10', customerId: null } } },
    async (c, { body }) => {
      const { db } = deps(c);
      if (!(await managementReportOn(db))) throw new ApiError(403, MANAGEMENT_TEXT.disabled, MANAGEMENT_CODE.disabled);
      const report = await managementReport(db, {
        month: body.month,
        customerId: body.customerId ?? null,
        targets: { within10: body.targetWithin10Percent, within40: body.targetWithin40Percent },
      });
      if (!report) throw notFound(MANAGEMENT_TEXT.customerNotFound);
      return c.json(report satisfies ManagementReport);
    },
  );

  api.post(
    '/alarm-report/log-call-download',
    { access: P.AlarmReportView, json: logCallDownloadBody, sample: { json: { alarmReportId: SAMPLE_ID, callId: SAMPLE_ID } } },
    async (c, { body, user }) => {
      const { db, config } = deps(c);
      const call = await findCall(db, tenantScope(user), body.callId);
      const report = call && call.alarmReportId === body.alarmReportId ? await findReportById(db, tenantScope(user), body.alarmReportId) : undefined;
      if (!report || (body.alarmId && body.alarmId !== report.alarmId)) throw notFound(ALARM_TEXT.callNotFound);
      await auditReport(db, user, 'callDownload', body.alarmReportId, config.now(), { callId: body.callId });
      return c.json({ Content: { Message: MSG.recordingDownloaded } } satisfies MessageResponse);
    },
  );

  api.post(
    '/alarm-report/export-list',
    { access: P.AlarmReportExport, json: alarmReportExportBody, sample: { json: { ...SAMPLE_FILTER, sortBy: 'AlarmClosedDate', sortDescending: true } } },
    async (c, { body, user }) => {
      const { db, config } = deps(c);
      const now = config.now();
      rangeOf(body, now); // a custom day in the future is refused here, before queuing
      // A job of the export pool, streamed as it is written (src/server/exports); audited once counted.
      return exportResponse(
        c,
        exports,
        user,
        { kind: 'alarmReports', filter: body, now: now.toISOString(), withAnalysis: await intelligenceFeatureOn(db) },
        EXPORT_LABEL.alarmReports,
        MSG.cannotExportAlarmReports,
        (total) =>
          audit(db, { actorId: user.id || null, action: 'alarmReport.export', entity: 'alarmReport', entityId: null, at: now, details: { count: total } }),
      );
    },
  );

  // Call recordings: the alarm line serves Alarm and Covert Call calls, the second line the others.
  const recording = (path: string, secondLine: boolean) =>
    api.get(
      path,
      { access: P.AlarmReportView, query: recordFileQuery, sample: { query: { RecordSId: 'RE0', ConferenceName: 'CF0', Id: SAMPLE_ID } } },
      async (c, { query, user }) => {
        const { db } = deps(c);
        const call = await findCall(db, tenantScope(user), query.Id);
        if (!call || isSecondLine(call.line) !== secondLine) throw recordingFailed();
        if (query.ConferenceName && call.conferenceName && query.ConferenceName !== call.conferenceName) throw recordingFailed();
        const record = parseRecords(call.records).find((r) => r.SId === query.RecordSId);
        if (!record || record.Unavailable) throw recordingFailed();
        const clip = await readClip(db, 'call', record.SId);
        if (!clip) throw recordingFailed();
        return audioResponse(clip, c.req.header('range'), `${record.SId}.wav`);
      },
    );
  recording('/api/v1/alarm-line/get-record-file', false);
  recording('/api/v1/second-line/get-record-file', true);

  api.get(
    '/interactive-communication/portal/voice-memo/get-file',
    { access: P.AlarmReportView, query: voiceMemoFileQuery, sample: { query: { PersonId: SAMPLE_ID, MemoId: SAMPLE_ID } } },
    async (c, { query, user }) => {
      const { db } = deps(c);
      const memos = await findVoiceMemo(db, tenantScope(user), query.MemoId);
      if (!memos.some((m) => m.personId === query.PersonId)) throw memoFailed();
      const clip = await readClip(db, 'memo', query.MemoId);
      if (!clip) throw memoFailed();
      return audioResponse(clip, c.req.header('range'), `voice-memo-${query.MemoId}.wav`);
    },
  );
}
