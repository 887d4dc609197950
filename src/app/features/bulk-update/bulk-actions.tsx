// Bulk actions on the selected devices (spec §4/§5): filled in by the bulk actions step.
import type { BulkDevice } from '../../state/bulk';

export function BulkActions(_: { selected: BulkDevice[] }) {
  return null;
}
