// Device import (spec §5 import file rules, §8 'Import' row): only .csv files are sent; a failure
// shows the server's message, or 'Import file invalid, check and try again (code)' when the server
// names an error code, or the default.
import { errorMessage, errorStatus } from '../../api/query-client';
import { MSG } from '../../../shared/messages';
import type { ImportResponse } from '../../../shared/schemas/devices';

/** Accepted type: CSV (by MIME type, or by extension when the browser gives none or a generic one). */
export function isCsvFile(file: { name: string; type: string }): boolean {
  const name = file.name.toLowerCase();
  if (file.type === 'text/csv' || file.type === 'application/csv') return true;
  if (file.type === 'application/vnd.ms-excel' || file.type === '' || file.type === 'text/plain') return name.endsWith('.csv');
  return false;
}

export function importErrorMessage(err: unknown): string {
  if (errorStatus(err) === 403) return MSG.forbidden;
  const content = (err as { data?: { Content?: { Code?: unknown; Message?: unknown } } } | null)?.data?.Content;
  if (typeof content?.Message === 'string' && content.Message) return content.Message;
  if (typeof content?.Code === 'string' && content.Code) return MSG.importInvalid(content.Code);
  return errorMessage(err);
}

/**
 * What an import did, as the user is told: the devices created (spec: 'You have successfully
 * imported N devices.'), and apart from them the serials that already existed (left as they are,
 * the file's values not applied).
 */
export function importOutcome(res: Pick<ImportResponse, 'created' | 'alreadyPresent'>): { kind: 'success' | 'warning'; message: string }[] {
  // One toast (a page shows one at a time): the spec's success sentence first, then what was left as it was.
  const present = res.alreadyPresent ?? [];
  if (res.created > 0 && present.length) return [{ kind: 'warning', message: `${MSG.importedN(res.created)} ${MSG.importAlreadyPresent(present)}` }];
  if (res.created > 0) return [{ kind: 'success', message: MSG.importedN(res.created) }];
  if (present.length) return [{ kind: 'warning', message: MSG.importAlreadyPresent(present) }];
  return [{ kind: 'success', message: MSG.imported }];
}
