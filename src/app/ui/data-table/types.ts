import type { ReactNode } from 'react';

/** Server-side sort: the column's sort key and the direction. */
export type SortState = { key: string; desc: boolean };

export type DataTableColumn<T> = {
  id: string;
  /** Header text (also the accessible column name). */
  header: string;
  /** Optional custom header rendering; `header` stays the accessible name. */
  renderHeader?: () => ReactNode;
  /** The row's cell. Drawn again only when the row, its selection or its link changes (not when it moves). */
  cell: (row: T) => ReactNode;
  /** Present = sortable; the value handed to onSortChange. */
  sortKey?: string;
  /** CSS grid track, e.g. '160px', '2fr', 'minmax(180px, 2fr)'. Default 'minmax(120px, 1fr)'. */
  width?: string;
  align?: 'start' | 'center' | 'end';
  /**
   * A secondary column: dropped while the table's own box is narrower than this many pixels (a
   * narrow pane), so the primary columns keep their widths instead of clipping.
   */
  hideBelow?: number;
  /**
   * Kept first in a compact table (the narrowest panes): primary columns, then the others in their
   * order, while they fit. Without any, the first column is the primary one.
   */
  primary?: boolean;
};

export type OpenOptions = { beside: boolean };
