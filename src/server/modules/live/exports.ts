// The live views' CSV exports (configurations, last messages), registered with the export pool
// (exports/registry.ts).
import { registerExport } from '../../exports/registry.js';
import type { ConfigurationListBody, LastMessagesBody } from '../../../shared/schemas/live.js';
import { configurationsCsv, lastMessagesCsv } from './export.js';

declare module '../../exports/registry.js' {
  interface ExportKinds {
    configurationsCsv: { filter: ConfigurationListBody; pageSize?: number };
    /** `now` is an ISO instant */
    lastMessagesCsv: { filter: LastMessagesBody; now: string; pageSize?: number };
  }
}

registerExport('configurationsCsv', (job) => configurationsCsv(job.scope, job.filter, job.pageSize));
registerExport('lastMessagesCsv', (job) => lastMessagesCsv(job.scope, job.filter, new Date(job.now), job.pageSize));
