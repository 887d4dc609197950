// The alarm reports' export, registered with the export pool (exports/registry.ts).
import { registerExport } from '../../exports/registry.js';
import type { AlarmReportExportBody } from '../../../shared/schemas/alarm-reports.js';
import { alarmReportExport } from './export.js';

declare module '../../exports/registry.js' {
  interface ExportKinds {
    /** `now` is an ISO instant */
    alarmReports: { filter: AlarmReportExportBody; now: string; withAnalysis?: boolean };
  }
}

registerExport('alarmReports', (job) => alarmReportExport(job.scope, job.filter, new Date(job.now), job.withAnalysis));
