// Alarm report intelligence (db first): whether it is on for a report (the feature flags and the
// customer's settings), generating the analysis from the report's detail document and storing it
// with the report, and reading the stored copy. Rules: src/shared/alarm-intelligence.ts.
import type { DB } from '../../db/index.js';
import { analyseAlarmReport } from '../../../shared/alarm-intelligence.js';
import type { StoredAnalysis } from '../../../shared/schemas/alarm-intelligence.js';
import type { AlarmAnalysis } from '../../../shared/alarm-intelligence.js';
import type { AlarmReportDetails } from '../../../shared/schemas/alarm-reports.js';
/** The Analysis column group of a report in the .xlsx export. */
export type ExportAnalysis = { PlanCheck: 'Agrees' | 'Questions' | 'No plan'; Anomalies: number; Summary: string };
import { alarmReportDetails } from './repo.js';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';

export const INTELLIGENCE_FEATURE = 'EnableAlarmReportIntelligence';
export const AUTO_GENERATE_FEATURE = 'AutoGenerateAlarmReportIntelligence';

async function featuresOn(db: DB) {
  const rows = await db.selectFrom('features').select(['name', 'isEnabled']).where('name', 'in', [INTELLIGENCE_FEATURE, AUTO_GENERATE_FEATURE]).execute();
  const on = (n: string) => rows.some((r) => r.name === n && r.isEnabled === 1);
  return { intelligence: on(INTELLIGENCE_FEATURE), auto: on(AUTO_GENERATE_FEATURE) };
}

/** Both features (intelligence and its auto-generation) are on. */
export async function autoGenerateFeaturesOn(db: DB) {
  const f = await featuresOn(db);
  return f.intelligence && f.auto;
}

/** Intelligence and auto-generation for one customer's reports: each needs its feature flag and the customer's setting. */
/** Whether the EnableAlarmReportIntelligence feature is on (the export then carries the Analysis column group). */
export const intelligenceFeatureOn = async (db: DB) => (await featuresOn(db)).intelligence;

export async function intelligenceFor(db: DB, customerId: string | null): Promise<{ enabled: boolean; auto: boolean }> {
  if (!customerId) return { enabled: false, auto: false };
  const [f, c] = await Promise.all([
    featuresOn(db),
    db.selectFrom('customers').select(['enableAlarmReportIntelligence', 'autoGenerateAlarmIntelligence']).where('id', '=', customerId).executeTakeFirst(),
  ]);
  const enabled = f.intelligence && c?.enableAlarmReportIntelligence === 1;
  return { enabled, auto: enabled && f.auto && c?.autoGenerateAlarmIntelligence === 1 };
}

const toStored = (row: { analysis: string; generatedAt: string; generatedBy: string | null }): StoredAnalysis | null => {
  try {
    return { ...(JSON.parse(row.analysis) as Omit<StoredAnalysis, 'GeneratedAt' | 'GeneratedBy'>), GeneratedAt: row.generatedAt, GeneratedBy: row.generatedBy };
  } catch {
    return null;
  }
};

/** The stored analysis of a report, or null. */
export async function readAnalysis(db: DB, reportId: string): Promise<StoredAnalysis | null> {
  const row = await db
    .selectFrom('alarmReportAnalyses')
    .select(['analysis', 'generatedAt', 'generatedBy'])
    .where('alarmReportId', '=', reportId)
    .executeTakeFirst();
  return row ? toStored(row) : null;
}

/** Generates the analysis of a report from its detail document and stores it (replacing the stored one); undefined for an unknown alarm. */
export async function generateAnalysis(
  db: DB,
  report: { id: string; alarmId: string; details?: AlarmReportDetails },
  now: Date,
  by: string | null,
): Promise<StoredAnalysis | undefined> {
  // The report was found within the caller's scope; its document is read whole (or given by a writer that has just written it).
  const details = report.details ?? (await alarmReportDetails(db, ALL_TENANTS, report.alarmId));
  if (!details) return undefined;
  const analysis = analyseAlarmReport(details);
  const row = { alarmReportId: report.id, analysis: JSON.stringify(analysis), generatedAt: now.toISOString(), generatedBy: by };
  await db
    .insertInto('alarmReportAnalyses')
    .values(row)
    .onConflict((oc) => oc.column('alarmReportId').doUpdateSet({ analysis: row.analysis, generatedAt: row.generatedAt, generatedBy: row.generatedBy }))
    .execute();
  return { ...analysis, GeneratedAt: row.generatedAt, GeneratedBy: by };
}

/** The export's Analysis columns of the given reports: only those with an analysis shown (feature and customer setting on). */
export async function exportAnalyses(db: DB, reportIds: readonly string[]): Promise<Map<string, ExportAnalysis>> {
  const out = new Map<string, ExportAnalysis>();
  if (!reportIds.length || !(await featuresOn(db)).intelligence) return out;
  for (let i = 0; i < reportIds.length; i += 500) {
    const rows = await db
      .selectFrom('alarmReportAnalyses')
      .innerJoin('alarmReports', 'alarmReports.id', 'alarmReportAnalyses.alarmReportId')
      .innerJoin('customers', 'customers.id', 'alarmReports.customerId')
      .select(['alarmReportAnalyses.alarmReportId', 'alarmReportAnalyses.analysis'])
      .where('alarmReportAnalyses.alarmReportId', 'in', reportIds.slice(i, i + 500))
      .where('customers.enableAlarmReportIntelligence', '=', 1)
      .execute();
    for (const r of rows) {
      try {
        const a = JSON.parse(r.analysis) as AlarmAnalysis;
        out.set(r.alarmReportId, { PlanCheck: a.PlanCheck?.Verdict ?? 'No plan', Anomalies: a.Anomalies.length, Summary: a.Summary });
      } catch {
        // an unreadable stored analysis exports blank
      }
    }
  }
  return out;
}

/**
 * Auto-generation: the Analysis of reports just closed or imported, stored for each whose customer
 * has 'Alarm Report Intelligence' and 'Auto-generate alarm intelligence' on while both features
 * (EnableAlarmReportIntelligence, AutoGenerateAlarmReportIntelligence) are on; nothing otherwise.
 * Every writer of reports calls it with the reports it wrote, inside its writing transaction, so a
 * report and its analysis commit together (the demo seed computes the same analysis inline while
 * batching). A writer holding the reports' detail documents passes them (`details`), sparing the
 * reads. Returns the ids of the reports analysed.
 */
export async function autoGenerateAnalyses(
  db: DB,
  reports: readonly { id: string; alarmId: string; customerId: string | null; details?: AlarmReportDetails }[],
  now: Date,
): Promise<string[]> {
  const ids = [...new Set(reports.map((r) => r.customerId).filter((c): c is string => c !== null))];
  if (!ids.length || !(await autoGenerateFeaturesOn(db))) return [];
  const on = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('customers')
      .select('id')
      .where('id', 'in', ids.slice(i, i + 500))
      .where('enableAlarmReportIntelligence', '=', 1)
      .where('autoGenerateAlarmIntelligence', '=', 1)
      .execute();
    for (const r of rows) on.add(r.id);
  }
  const rows: { alarmReportId: string; analysis: string; generatedAt: string; generatedBy: null }[] = [];
  const seen = new Set<string>();
  for (const r of reports) {
    if (r.customerId === null || !on.has(r.customerId) || seen.has(r.id)) continue;
    seen.add(r.id);
    const details = r.details ?? (await alarmReportDetails(db, ALL_TENANTS, r.alarmId));
    if (details) rows.push({ alarmReportId: r.id, analysis: JSON.stringify(analyseAlarmReport(details)), generatedAt: now.toISOString(), generatedBy: null });
  }
  // Stored a few hundred at a time (replacing any stored before, as generateAnalysis does).
  for (let i = 0; i < rows.length; i += 200)
    await db
      .insertInto('alarmReportAnalyses')
      .values(rows.slice(i, i + 200))
      .onConflict((oc) =>
        oc.column('alarmReportId').doUpdateSet((eb) => ({
          analysis: eb.ref('excluded.analysis'),
          generatedAt: eb.ref('excluded.generatedAt'),
          generatedBy: eb.ref('excluded.generatedBy'),
        })),
      )
      .execute();
  return rows.map((r) => r.alarmReportId);
}
