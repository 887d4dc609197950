// Shown in place of a list or panel that has nothing to show (spec: empty state when the total count is 0).
import type { ReactNode } from 'react';
import { MSG } from '../../shared/messages';
import './data-table/list-widgets.css';

export function EmptyState({ message = MSG.noResultsFound, children }: { message?: ReactNode; children?: ReactNode }) {
  return (
    <div className="lw-empty" role="status">
      <svg className="lw-empty__icon" viewBox="0 0 24 24" width="32" height="32" aria-hidden="true">
        <path fill="none" stroke="currentColor" strokeWidth="1.5" d="M4 7h16M4 12h10M4 17h7" />
        <circle cx="17.5" cy="16.5" r="3" fill="none" stroke="currentColor" strokeWidth="1.5" />
        <path stroke="currentColor" strokeWidth="1.5" d="m20 19 2 2" />
      </svg>
      <p className="lw-empty__message">{message}</p>
      {children}
    </div>
  );
}
