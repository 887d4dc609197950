import type { ReactNode } from 'react';

/** Server-side sort: the column's sort key and the direction. */
export type SortState = { key: string; desc: boolean };

export type DataTableColumn<T> = {
  id: string;
  /** Header text (also the accessible column name). */
  header: string;
  /** Optional custom header rendering; `header` stays the accessible name. */
  renderHeader?: () => ReactNode;
  cell: (row: T, index: number) => ReactNode;
  /** Present = sortable; the value handed to onSortChange. */
  sortKey?: string;
  /** CSS grid track, e.g. '160px', '2fr', 'minmax(180px, 2fr)'. Default 'minmax(120px, 1fr)'. */
  width?: string;
  align?: 'start' | 'center' | 'end';
};

export type OpenOptions = { beside: boolean };

/** Single keys the list handles (shown by the shortcut sheet; never fired while typing). */
export const DATA_TABLE_KEYS = [
  { keys: 'j / ArrowDown', title: 'Next row' },
  { keys: 'k / ArrowUp', title: 'Previous row' },
  { keys: 'Home / End', title: 'First / last row' },
  { keys: 'PageDown / PageUp', title: 'Move by a screen' },
  { keys: 'Enter', title: 'Open row' },
  { keys: 'Mod+Enter', title: 'Open row beside' },
  { keys: '/', title: 'Focus the list filter' },
  { keys: 'x', title: 'Select row' },
] as const;
