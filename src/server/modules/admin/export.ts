// The audit trail as .xlsx: the list's columns and filters, newest first (keyset pages on (at, id)).
// Run only inside the export pool (src/server/exports).
import type { AuditEntryDto } from '../../../shared/schemas/admin.js';
import { describeAuditDetails } from '../../../shared/schemas/admin.js';
import { withZone } from '../../../shared/export-format.js';
import { keysetPages, type ExportColumn, type ExportDefinition } from '../../exports/definition.js';
import { auditExportPage, countAudit, type AuditFilter } from './repo.js';

const COLUMNS: ExportColumn<AuditEntryDto>[] = [
  { header: withZone('When'), value: (e) => e.At, width: 22, date: true },
  { header: 'Actor', value: (e) => e.ActorName ?? 'System', width: 24 },
  { header: 'Action', value: (e) => e.Action, width: 28 },
  { header: 'Entity', value: (e) => e.Entity, width: 14 },
  { header: 'Record', value: (e) => e.EntityId, width: 38 },
  { header: 'Details', value: (e) => describeAuditDetails(e.Details), width: 80 },
];

export function auditExport(f: AuditFilter): ExportDefinition<AuditEntryDto> {
  return {
    sheet: 'Audit Trail',
    columns: COLUMNS,
    count: (db) => countAudit(db, f),
    pages: (db) =>
      keysetPages(
        (after: { at: string; id: number } | null, size) => auditExportPage(db, f, after, size),
        (e) => ({ at: e.At, id: e.Id }),
      ),
  };
}
