// A date (or date-time) box that reads and accepts DD/MM/YYYY (HH:mm, 24-hour) whatever the
// browser's locale (src/shared/dates.ts), with a keyboard-operable calendar (react-day-picker) in a
// popover: the calendar button opens it with focus on the chosen day, arrows move, Enter picks,
// Escape closes and gives focus back to the box. Future days are disabled unless allowed; the
// value is Europe/London wall-clock time, so the last day offered is London's today.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { Matcher } from 'react-day-picker';
import { endOfDay, startOfDay } from 'date-fns';
import { DATE_PLACEHOLDER, DATE_TIME_PLACEHOLDER, formatTypedDate, londonCalendarToday, parseTypedDate } from '../../shared/dates';

// The calendar is a chunk of its own (about 40 kB): asked for as a date box mounts, so it is there
// when the box's button is pressed, and the workspace's first page (the asset list has no date box)
// does not load it.
const loadCalendar = () => import('./date-calendar');
const DateCalendar = lazy(() => loadCalendar().then((m) => ({ default: m.DateCalendar })));

export type DateFieldProps = {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  withTime?: boolean;
  allowFuture?: boolean;
  min?: Date;
  max?: Date;
  /** id of the element that explains what is wrong with the value (the field is then invalid). */
  errorId?: string;
};

export function DateField({ id, label, value, onChange, withTime = false, allowFuture = false, min, max, errorId }: DateFieldProps) {
  const [open, setOpen] = useState(false);
  const boxRef = useRef<HTMLInputElement>(null);
  const popRef = useRef<HTMLDivElement>(null);
  const last = max ?? (allowFuture ? undefined : endOfDay(londonCalendarToday()));
  const disabled: Matcher[] = [];
  if (last) disabled.push({ after: last });
  if (min) disabled.push({ before: startOfDay(min) });
  const selected = parseTypedDate(value, withTime) ?? undefined;

  useEffect(() => void loadCalendar().catch(() => undefined), []);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (popRef.current && !popRef.current.contains(e.target as Node) && e.target !== boxRef.current) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    boxRef.current?.focus();
  };
  const pick = (day: Date | undefined) => {
    if (!day) return;
    const d = new Date(day);
    if (withTime) d.setHours(selected?.getHours() ?? 0, selected?.getMinutes() ?? 0);
    onChange(formatTypedDate(d, withTime));
    close();
  };

  return (
    <div className="lw-datefield">
      <input
        ref={boxRef}
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        className="lw-input"
        placeholder={withTime ? DATE_TIME_PLACEHOLDER : DATE_PLACEHOLDER}
        value={value}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          // Alt+ArrowDown opens the calendar, as on a native date box.
          if (e.key === 'ArrowDown' && e.altKey) {
            e.preventDefault();
            setOpen(true);
          }
        }}
      />
      <button
        type="button"
        className="lw-btn lw-datefield__btn"
        aria-label={`Choose ${label}`}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <rect x="3" y="5" width="18" height="16" rx="2" />
          <path d="M3 10h18M8 3v4M16 3v4" />
        </svg>
      </button>
      {open && (
        <div
          ref={popRef}
          role="dialog"
          aria-label={`Choose ${label}`}
          className="lw-datepop"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              close();
            }
          }}
        >
          <Suspense fallback={null}>
            <DateCalendar selected={selected} last={last} disabled={disabled} onSelect={pick} />
          </Suspense>
        </div>
      )}
    </div>
  );
}
