// Lists sorted by a coded column (device Type, Status) order by the name the screen shows, not by
// the hidden code. The server turns these ranks into its ORDER BY (and the indexes that serve it),
// so the database, the list and any export agree.
import { ASSET_STATUSES, DEVICE_TYPES, statusDisplayName, type Lookup } from './codes.js';

/** An asset status as the screen shows it ('AwaitingReturn_Replacement' → 'Awaiting Return (Replacement)'); empty as '-'. */
export function statusLabel(name: string | null | undefined): string {
  if (!name) return '-';
  return statusDisplayName(name);
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Each code's rank in the order of its shown name (equal names share a rank); codes not in the list come after all. */
export function nameRanks(list: readonly Lookup[], label: (name: string) => string = (n) => n): { value: number; rank: number }[] {
  const sorted = [...list].sort((a, b) => collator.compare(label(a.Name), label(b.Name)) || a.Value - b.Value);
  const out: { value: number; rank: number }[] = [];
  let rank = 0;
  sorted.forEach((l, i) => {
    if (i > 0 && collator.compare(label(sorted[i - 1]!.Name), label(l.Name)) !== 0) rank = i;
    out.push({ value: l.Value, rank });
  });
  return out;
}

export const DEVICE_TYPE_NAME_RANKS = nameRanks(DEVICE_TYPES);
export const ASSET_STATUS_NAME_RANKS = nameRanks(ASSET_STATUSES, statusLabel);
