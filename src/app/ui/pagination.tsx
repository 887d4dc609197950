// Pagination with boundary count 1 (spec §2) and a rows-per-page selector (10, 25, 50, 100).
import { useId, type ReactNode } from 'react';
import { useFocusSafeDisabled } from './action-button';
import { PAGE_SIZES } from '../../shared/codes';
import './data-table/list-widgets.css';
import { formatCount } from '../../shared/numbers';

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
  const [firstEnd] = endPages;
  const siblingsEnd = Math.min(Math.max(page + sibling, boundary + sibling * 2 + 2), firstEnd !== undefined ? firstEnd - 2 : count - 1);
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
  // the page size chosen makes the list load (disabled meanwhile): the select keeps the focus
  const sizeSelect = useFocusSafeDisabled<HTMLSelectElement>(!!disabled);
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
          <select
            id={selectId}
            className="lw-select"
            value={pageSize}
            {...sizeSelect.props}
            onChange={(e) => !sizeSelect.inert && onPageSizeChange(Number(e.target.value))}
          >
            {pageSizes.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </span>
      )}
      <span className="lw-pagination__range" aria-live="polite">
        {from}–{to} of {formatCount(totalCount)}
      </span>
      <span className="lw-pagination__pages">
        <PageButton label="Previous page" disabled={disabled || page <= 1} onClick={() => go(page - 1)}>
          ‹
        </PageButton>
        {pageItems(page, pageCount).map((item) =>
          typeof item === 'number' ? (
            <PageButton key={item} label={`Page ${item}`} current={item === page} disabled={!!disabled} onClick={() => go(item)}>
              {item}
            </PageButton>
          ) : (
            <span key={item} className="lw-page-gap" aria-hidden="true">
              …
            </span>
          ),
        )}
        <PageButton label="Next page" disabled={disabled || page >= pageCount} onClick={() => go(page + 1)}>
          ›
        </PageButton>
      </span>
    </nav>
  );
}

/** A page button that keeps the focus when it becomes disabled (the last page reached, the list loading). */
function PageButton({
  label,
  current,
  disabled,
  onClick,
  children,
}: {
  label: string;
  current?: boolean;
  disabled: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  const safe = useFocusSafeDisabled<HTMLButtonElement>(disabled);
  return (
    <button
      type="button"
      className="lw-page-btn"
      aria-label={label}
      aria-current={current ? 'page' : undefined}
      {...safe.props}
      onClick={() => !safe.inert && onClick()}
    >
      {children}
    </button>
  );
}
