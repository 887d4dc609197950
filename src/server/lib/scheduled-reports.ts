// The kinds of scheduled report the scheduler builds, registered by the modules that own them
// (modules/<area>/scheduled.ts, all loaded by modules/scheduled-reports.ts in the app assembly).
// The scheduler (modules/schedules/scheduler.ts) imports no module's report: it claims a due
// schedule, looks its kind up here, and puts what the kind built in the outbox.
import type { Selectable } from 'kysely';
import type { DB } from '../db/index.js';
import type { ReportScheduleTable } from '../db/schema.js';
import type { TenantScope } from '../auth/tenant-scope.js';
import type { ExportPool } from '../exports/pool.js';
import type { ScheduleReport, ScheduleRule } from '../../shared/schedules.js';

/** One run of a schedule, as the scheduler hands it to the kind's build. */
export type ScheduledRun = {
  db: DB;
  exports: ExportPool;
  schedule: Selectable<ReportScheduleTable>;
  /** the schedule's due-time rule */
  rule: ScheduleRule;
  /** the due time the run is for */
  dueAt: Date;
  now: Date;
  /** the recipients' tenant scope: provider staff see every tenant, a customer's person that customer alone */
  scope: TenantScope;
};

/** What a run sends: the file (null when nothing matched), its row count, the subject and the body's middle. */
export type ScheduledReport = {
  file: { fileName: string; contentType: string; content: Uint8Array } | null;
  rows: number;
  subject: string;
  text: string;
};

export type ScheduledKind = {
  /** Builds the run's file and text; a throw fails the run (it is tried again). */
  build: (run: ScheduledRun) => Promise<ScheduledReport>;
  /** Whether a schedule of this kind may be saved now (a feature it needs is on); absent: always. */
  available?: (db: DB) => Promise<boolean>;
};

const kinds = new Map<ScheduleReport, ScheduledKind>();

export function registerScheduledReport(kind: ScheduleReport, definition: ScheduledKind) {
  kinds.set(kind, definition);
}

export function scheduledReportOf(kind: string): ScheduledKind {
  const found = kinds.get(kind as ScheduleReport);
  if (!found) throw new Error(`no scheduled report registered for '${kind}' (modules/scheduled-reports.ts)`);
  return found;
}
