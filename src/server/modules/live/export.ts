// The bulk tabs' CSV downloads (spec §9: CurrentConfiguration_<date>.csv, TestingConfiguration_<date>.csv):
// the selected devices' rows in the list's filter and order, as the export pool writes them. The
// first pass keeps only each kept row's id and sort keys, sorted as the list sorts; the rows are then
// read a page at a time in that order and written as they are read. Run only inside the export pool
// (src/server/exports).
import { csvCell, withZone } from '../../../shared/export-format.js';
import {
  fallPresetName,
  trackingLabel,
  type ConfigurationListBody,
  type ConfigurationRow,
  type LastMessageDto,
  type LastMessagesBody,
} from '../../../shared/schemas/live.js';
import type { DB } from '../../db/index.js';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { ExportColumn, ExportDefinition } from '../../exports/definition.js';
import { configurationOrder, configurationPage, lastMessageOrder, lastMessagePage } from './repo.js';

/** Rows read and written at a time. */
export const CSV_PAGE_ROWS = 1000;

/** The order once (count, then pages), and its pages of rows. */
function orderedCsv<K, R>(sheet: string, columns: ExportColumn<R>[], order: (db: DB) => Promise<K[]>, page: (db: DB, keys: K[]) => Promise<R[]>, size: number) {
  let keys: Promise<K[]> | undefined;
  const ordered = (db: DB) => (keys ??= order(db));
  return {
    sheet,
    format: 'csv',
    columns,
    count: async (db) => (await ordered(db)).length,
    pages: async function* (db) {
      const all = await ordered(db);
      for (let i = 0; i < all.length; i += size) yield await page(db, all.slice(i, i + size));
    },
  } satisfies ExportDefinition<R>;
}

const noConfiguration = (r: ConfigurationRow) => r.LastUpdated === null;
const CONFIGURATION_COLUMNS: ExportColumn<ConfigurationRow>[] = [
  { header: 'Serial Number', width: 22, value: (r) => csvCell(r.Serial) },
  { header: 'Device Type', width: 18, value: (r) => csvCell(r.Type.Name) },
  { header: 'Tracking', width: 18, value: (r) => (noConfiguration(r) ? 'No configuration for this device' : trackingLabel(r.IsTracking, r.TrackingSeconds)) },
  {
    header: 'Fall Detection',
    width: 18,
    value: (r) =>
      noConfiguration(r)
        ? ''
        : r.IsFallDetection == null
          ? '-'
          : r.IsFallDetection
            ? `On - ${fallPresetName(r.FallDetectionSettings, r.FirmwareVersion)}`
            : 'Off',
  },
  { header: 'Call 1 Type', width: 16, value: (r) => (noConfiguration(r) ? '' : r.Call1Type ? csvCell(r.Call1Type.Name) : '-') },
  { header: 'Call 2 Type', width: 16, value: (r) => (noConfiguration(r) ? '' : r.Call2Type ? csvCell(r.Call2Type.Name) : '-') },
  { header: withZone('Last Updated'), width: 24, value: (r) => r.LastUpdated, date: true },
];

/** CurrentConfiguration: the current-configuration list's rows. */
export function configurationsCsv(scope: TenantScope, f: ConfigurationListBody, size = CSV_PAGE_ROWS) {
  return orderedCsv(
    'CurrentConfiguration',
    CONFIGURATION_COLUMNS,
    (db) => configurationOrder(db, scope, f, size),
    (db, ids: string[]) => configurationPage(db, ids),
    size,
  );
}

const LAST_MESSAGE_COLUMNS: ExportColumn<LastMessageDto>[] = [
  { header: 'Serial Number', width: 22, value: (r) => csvCell(r.SerialNumber) },
  { header: 'Device Type', width: 18, value: (r) => csvCell(r.DeviceType.Name) },
  { header: withZone('Date'), width: 24, value: (r) => (r.IsEmpty ? null : r.Date), date: true },
  { header: 'Message', width: 40, value: (r) => (r.IsEmpty ? 'No communication received from this device' : csvCell(r.Message)) },
  { header: 'Battery', width: 10, value: (r) => (r.IsEmpty ? '' : csvCell(r.Battery)) },
  { header: 'Signal', width: 10, value: (r) => (r.IsEmpty ? '' : csvCell(r.Signal)) },
  { header: 'Connected', width: 10, value: (r) => (r.IsConnected ? 'Yes' : 'No') },
];

/** TestingConfiguration: the last-messages list's rows (`now` decides who counts as connected). */
export function lastMessagesCsv(scope: TenantScope, f: LastMessagesBody, now: Date, size = CSV_PAGE_ROWS) {
  const nowMs = now.getTime();
  return orderedCsv(
    'TestingConfiguration',
    LAST_MESSAGE_COLUMNS,
    (db) => lastMessageOrder(db, scope, f, nowMs, size),
    (db, identities: string[]) => lastMessagePage(db, scope, identities, nowMs),
    size,
  );
}
