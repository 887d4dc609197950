// Pagination with boundary count 1 (spec §2) and a rows-per-page selector (10, 25, 50, 100).
import { useId } from 'react';
import { PAGE_SIZES } from '../../shared/codes';
import './data-table/list-widgets.css';

export type PageItem = number | 'start-ellipsis' | 'end-ellipsis';

const range = (start: number, end: number) => (end < start ? [] : Array.from({ length: end - start + 1 }, (_, i) => start + i));

/**
 * Page buttons to show: the first and last `boundary` pages, `sibling` pages either side of the
 * current one, and an ellipsis for each gap of two or more pages (a gap of one shows the page).
 */
export function pageItems(page: number, count: number, boundary = 1, sibling = 1): PageItem[] {
  if (count <= 0) return [];
  const startPages = range(1, Math.min(boundary, count));
  const endPages = range(Math.max(count - boundary + 1, boundary + 1), count);
  const siblingsStart = Math.max(Math.min(page - sibling, count - boundary - sibling * 2 - 1), boundary + 2);
  const siblingsEnd = Math.min(Math.max(page + sibling, boundary + sibling * 2 + 2), endPages.length > 0 ? endPages[0] - 2 : count - 1);
  return [
    ...startPages,
    ...(siblingsStart > boundary + 2 ? (['start-ellipsis'] as const) : boundary + 1 < count - boundary ? [boundary + 1] : []),
    ...range(siblingsStart, siblingsEnd),
    ...(siblingsEnd < count - boundary - 1 ? (['end-ellipsis'] as const) : count - boundary > boundary ? [count - boundary] : []),
    ...endPages,
  ];
}

export type PaginationProps = {
  page: number;
  pageSize: number;
  totalCount: number;
  onPageChange: (page: number) => void;
  onPageSizeChange?: (pageSize: number) => void;
  pageSizes?: readonly number[];
  /** Accessible name of the navigation landmark. */
  label?: string;
  disabled?: boolean;
};

export function Pagination({
  page,
  pageSize,
  totalCount,
  onPageChange,
  onPageSizeChange,
  pageSizes = PAGE_SIZES,
  label = 'Pagination',
  disabled,
}: PaginationProps) {
  const selectId = useId();
  const pageCount = Math.max(1, Math.ceil(totalCount / pageSize));
  const from = totalCount === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(totalCount, page * pageSize);
  const go = (p: number) => {
    const next = Math.min(Math.max(1, p), pageCount);
    if (next !== page) onPageChange(next);
  };
  return (
    <nav className="lw-pagination" aria-label={label}>
      {onPageSizeChange && (
        <span className="lw-pagination__size">
          <label htmlFor={selectId}>Rows per page</label>
          <select id={selectId} className="lw-select" value={pageSize} disabled={disabled} onChange={(e) => onPageSizeChange(Number(e.target.value))}>
            {pageSizes.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </span>
      )}
      <span className="lw-pagination__range" aria-live="polite">
        {from}–{to} of {totalCount.toLocaleString('en-GB')}
      </span>
      <span className="lw-pagination__pages">
        <button type="button" className="lw-page-btn" aria-label="Previous page" disabled={disabled || page <= 1} onClick={() => go(page - 1)}>
          ‹
        </button>
        {pageItems(page, pageCount).map((item) =>
          typeof item === 'number' ? (
            <button
              key={item}
              type="button"
              className="lw-page-btn"
              aria-label={`Page ${item}`}
              aria-current={item === page ? 'page' : undefined}
              disabled={disabled}
              onClick={() => go(item)}
            >
              {item}
            </button>
          ) : (
            <span key={item} className="lw-page-gap" aria-hidden="true">
              …
            </span>
          ),
        )}
        <button type="button" className="lw-page-btn" aria-label="Next page" disabled={disabled || page >= pageCount} onClick={() => go(page + 1)}>
          ›
        </button>
      </span>
    </nav>
  );
}
