// A yes/no cell readable at a glance: a tick in a green circle for yes, a faint dash for no.
// Screen readers hear the label with ': yes' or ': no' (role img), not an unlabelled checkbox.
import type { DataTableColumn } from './types';
import { LineIcon } from '../line-icon';

export function YesNoMark({ value, label }: { value: boolean; label: string }) {
  return value ? (
    <span className="lw-mark lw-mark--yes" role="img" aria-label={`${label}: yes`} title={label}>
      <LineIcon d="M5 12.5l4.5 4.5L19 7.5" size={14} strokeWidth={3} />
    </span>
  ) : (
    <span className="lw-mark lw-mark--no" role="img" aria-label={`${label}: no`}>
      <span aria-hidden="true">–</span>
    </span>
  );
}

/** A centred yes/no column of a list (e.g. Assigned, Migrated), sorted by its header unless `sortKey` says otherwise; `label` names a row's mark. */
export function yesNoColumn<T>(c: {
  id: string;
  header: string;
  sortKey?: string;
  width: string;
  value: (row: T) => boolean;
  label: (row: T) => string;
}): DataTableColumn<T> {
  const cell = (row: T) => <YesNoMark value={c.value(row)} label={c.label(row)} />;
  return { id: c.id, header: c.header, sortKey: c.sortKey ?? c.header, width: c.width, align: 'center', cell };
}
