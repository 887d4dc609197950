// Lists sorted by a coded column (device Type and Status; the alarm list's Trigger, Type,
// Category, Device and Tier) order by the name the screen shows, not by the hidden code. This is
// the one rule: the server turns these ranks into its ORDER BY (and the indexes that serve it), so
// the database, the list and any export agree.
import { ASSET_STATUSES, DEVICE_TYPES, deviceTypeDisplayName, statusDisplayName, type Lookup } from './codes.js';

/** An asset status as the screen shows it ('AwaitingReturn_Replacement' → 'Awaiting Return (Replacement)'); empty as '-'. */
export function statusLabel(name: string | null | undefined): string {
  if (!name) return '-';
  return statusDisplayName(name);
}

/**
 * Sort position of each code by the name the screen shows for it (`label`; by default the code's
 * name): names compared case-insensitively in byte order, the rule every text sort follows; codes
 * sharing a shown name share a position; positions are dense (0, 1, 2, …), in the list's order of
 * codes. Codes not in the list come after all: at `rankCount(ranks)`.
 */
export function nameRanks(list: readonly Lookup[], label: (l: Lookup) => string = (l) => l.Name): Map<number, number> {
  const key = (l: Lookup) => label(l).toLowerCase();
  const names = [...new Set(list.map(key))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const at = new Map(names.map((n, i) => [n, i]));
  return new Map(list.map((l) => [l.Value, at.get(key(l))!]));
}

/** How many positions `ranks` uses: the position of a code not in its list (last). */
export const rankCount = (ranks: ReadonlyMap<number, number>) => new Set(ranks.values()).size;

/** Device types as the asset list shows them ('badge (42)': types sharing a name carry their code). */
export const DEVICE_TYPE_NAME_RANKS = nameRanks(DEVICE_TYPES, deviceTypeDisplayName);
/** Asset statuses as the screen shows them (statusLabel). */
export const ASSET_STATUS_NAME_RANKS = nameRanks(ASSET_STATUSES, (l) => statusLabel(l.Name));
