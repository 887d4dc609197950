// Palette scopes: a prefix typed first narrows the search and shows as a chip.
import type { SearchScope } from '../../shared/schemas/search';

export type ScopeKey = '>' | '#' | '@' | '!' | '$';
export const SCOPES: Record<ScopeKey, { label: string; server: Exclude<SearchScope, 'all'> | null }> = {
  '>': { label: 'Commands', server: null },
  '#': { label: 'Devices', server: 'devices' },
  '@': { label: 'Persons', server: 'persons' },
  '!': { label: 'Alarm reports', server: 'alarmReports' },
  $: { label: 'Customers', server: 'customers' },
};
export const isScopeKey = (ch: string): ch is ScopeKey => Object.prototype.hasOwnProperty.call(SCOPES, ch);

/** Splits typed text into a scope (when it starts with a prefix) and the rest. */
export function parseScoped(text: string): { scope: ScopeKey | null; text: string } {
  const first = text[0];
  if (first && isScopeKey(first)) return { scope: first, text: text.slice(1).trimStart() };
  return { scope: null, text };
}
