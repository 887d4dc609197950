// The audit trail's export, registered with the export pool (exports/registry.ts).
import { registerExport } from '../../exports/registry.js';
import { auditExport } from './export.js';
import type { AuditFilter } from './repo.js';

declare module '../../exports/registry.js' {
  interface ExportKinds {
    audit: { filter: AuditFilter };
  }
}

registerExport('audit', (job) => auditExport(job.filter));
