// The shared filter bar (spec §2 shared widgets, §5 date rules, §9 sizes). The user edits a
// draft; 'Apply' (or Enter in a text box) emits it, 'Clear Filters' resets and emits. Below the
// large breakpoint the filters fold behind a toggle; the search box stays visible so `/` can always
// reach it. In the workspace the pane is the screen: the fold is a container query on the pane
// (list-widgets.css), so a narrow pane folds its filters whatever the window's width.
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { isTypedFuture, londonInstant } from '../../shared/dates';
import { DateField } from './date-field';
import { MSG } from '../../shared/messages';
import { MAX_SEARCH_LENGTH } from '../../shared/schemas/common';
import './data-table/list-widgets.css';

export type FilterOption = { value: string; label: string; disabled?: boolean };
export type FilterValue = string | string[] | boolean | FilterOption | null | undefined;
export type FilterValues = Record<string, FilterValue>;

type Base = { id: string; label: string };
export type FilterDef =
  | (Base & { type: 'input'; placeholder?: string; minLength?: number; maxLength?: number })
  | (Base & { type: 'multiselect'; options: FilterOption[]; placeholder?: string })
  | (Base & {
      type: 'autocomplete';
      placeholder?: string;
      /** Static options filtered locally, or a server search (debounced, cancelled when superseded). */
      options?: FilterOption[];
      loadOptions?: (query: string, signal: AbortSignal) => Promise<FilterOption[]>;
    })
  | (Base & { type: 'check-filter' })
  | (Base & { type: 'dropdown'; options: FilterOption[]; placeholder?: string })
  | (Base & { type: 'date'; allowFuture?: boolean; min?: Date; max?: Date; notAfter?: string })
  | (Base & { type: 'date-time'; allowFuture?: boolean; min?: Date; max?: Date; minutesStep?: number; notAfter?: string });

export { DATE_FORMAT, DATE_TIME_FORMAT } from '../../shared/dates';

/** A Yes / No choice ('yes', 'no'; empty is All), e.g. Assigned, Connected, Tracking. */
export const yesNoFilter = (id: string, label: string): FilterDef => ({
  id,
  type: 'dropdown',
  label,
  placeholder: 'All',
  options: [
    { value: 'yes', label: 'Yes' },
    { value: 'no', label: 'No' },
  ],
});

/**
 * What is wrong with the date filters of a draft, by filter id (empty when nothing): a value not in
 * DD/MM/YYYY (HH:mm), a future date where the filter refuses them (the server's message), and a
 * 'from' after its 'to' (`notAfter`). Typed values are Europe/London wall-clock time, whatever the
 * browser's zone: 'today' is London's today.
 */
export function dateFilterErrors(defs: FilterDef[], values: FilterValues, now = new Date()): Record<string, string> {
  const errors: Record<string, string> = {};
  const dates = new Map<string, Date>();
  for (const def of defs) {
    if (def.type !== 'date' && def.type !== 'date-time') continue;
    const raw = values[def.id];
    if (typeof raw !== 'string' || !raw.trim()) continue;
    const withTime = def.type === 'date-time';
    const d = londonInstant(raw, withTime);
    if (!d) errors[def.id] = withTime ? MSG.dateTimeFormatHint : MSG.dateFormatHint;
    else if (!def.allowFuture && isTypedFuture(raw, withTime, now)) errors[def.id] = MSG.dateInFuture;
    else dates.set(def.id, d);
  }
  for (const def of defs) {
    if ((def.type !== 'date' && def.type !== 'date-time') || !def.notAfter) continue;
    const from = dates.get(def.id);
    const to = dates.get(def.notAfter);
    if (from && to && from > to) errors[def.id] = MSG.dateFromAfterTo;
  }
  return errors;
}

export const isEmptyValue = (v: FilterValue) => v === undefined || v === null || v === '' || v === false || (Array.isArray(v) && v.length === 0);

/** Drops empty entries so callers can build query strings straight from the result. */
export function cleanFilters(values: FilterValues): FilterValues {
  const out: FilterValues = {};
  for (const [k, v] of Object.entries(values)) if (!isEmptyValue(v)) out[k] = typeof v === 'string' ? v.trim() : v;
  return out;
}

export type FilterBarProps = {
  filters: FilterDef[];
  /** The applied values (the draft starts from them and follows them when they change). */
  value: FilterValues;
  onApply: (values: FilterValues) => void;
  /** What 'Clear Filters' resets to; default: everything empty. */
  emptyValue?: FilterValues;
  /** A free-text search box in front of the filters (its value is values[search.id]). */
  search?: { id: string; label?: string; placeholder?: string; maxLength?: number };
  /** The page hands this to the DataTable so `/` focuses the search box. */
  searchRef?: RefObject<HTMLInputElement | null>;
  /** Accessible name of the filter form. */
  label?: string;
};

export function FilterBar({ filters, value, onApply, emptyValue = {}, search, searchRef, label = 'Filters' }: FilterBarProps) {
  const [draft, setDraft] = useState<FilterValues>(value);
  useEffect(() => setDraft(value), [value]);
  const [open, setOpen] = useState(false);
  const regionId = useId();
  const searchId = useId();

  const set = useCallback((id: string, v: FilterValue) => setDraft((d) => ({ ...d, [id]: v })), []);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const apply = (e?: FormEvent) => {
    e?.preventDefault();
    // A refused value says why beside its field and nothing is applied.
    const found = dateFilterErrors(filters, draft);
    setErrors(found);
    if (Object.keys(found).length) {
      setOpen(true);
      return;
    }
    onApply(cleanFilters(draft));
  };
  const clear = () => {
    setErrors({});
    setDraft(emptyValue);
    onApply(cleanFilters(emptyValue));
  };
  const activeCount = filters.filter((f) => !isEmptyValue(value[f.id])).length;

  return (
    <form className="lw-filters" role="search" aria-label={label} onSubmit={apply} noValidate>
      <div className="lw-filters__top">
        {search && (
          <div className="lw-filters__search">
            <label htmlFor={searchId} className="lw-sr-only">
              {search.label ?? 'Search'}
            </label>
            <input
              id={searchId}
              ref={searchRef}
              type="search"
              className="lw-input"
              style={{ width: '100%' }}
              placeholder={search.placeholder ?? MSG.filterSearchPlaceholder}
              maxLength={search.maxLength ?? MAX_SEARCH_LENGTH}
              value={typeof draft[search.id] === 'string' ? (draft[search.id] as string) : ''}
              onChange={(e) => set(search.id, e.target.value)}
            />
          </div>
        )}
        {filters.length > 0 && (
          <button type="button" className="lw-btn lw-filters__toggle" aria-expanded={open} aria-controls={regionId} onClick={() => setOpen((o) => !o)}>
            {open ? 'Hide filters' : 'Show filters'}
            {activeCount > 0 ? ` (${activeCount})` : ''}
          </button>
        )}
        <Actions onClear={clear} />
      </div>
      {filters.length > 0 && (
        <div id={regionId} className="lw-filters__grid" data-open={open || undefined}>
          {filters.map((f) => (
            <FilterControl key={f.id} def={f} value={draft[f.id]} error={errors[f.id]} onChange={(v) => set(f.id, v)} />
          ))}
        </div>
      )}
    </form>
  );
}

function Actions({ onClear }: { onClear: () => void }) {
  return (
    <div className="lw-filters__actions">
      <button type="submit" className="lw-btn lw-btn--primary">
        {MSG.uiApply}
      </button>
      <button type="button" className="lw-btn" onClick={onClear}>
        {MSG.uiClearFilters}
      </button>
    </div>
  );
}

function FilterControl({ def, value, error, onChange }: { def: FilterDef; value: FilterValue; error?: string; onChange: (v: FilterValue) => void }) {
  const id = useId();
  const errorId = `${id}-error`;
  switch (def.type) {
    case 'input':
      return (
        <Labelled id={id} label={def.label}>
          <input
            id={id}
            type="text"
            className="lw-input"
            placeholder={def.placeholder ?? MSG.filterSearchPlaceholder}
            minLength={def.minLength}
            maxLength={def.maxLength ?? MAX_SEARCH_LENGTH}
            value={typeof value === 'string' ? value : ''}
            onChange={(e) => onChange(e.target.value)}
          />
        </Labelled>
      );
    case 'check-filter':
      return (
        <div className="lw-filter lw-filter--check">
          <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
          <label htmlFor={id} className="lw-filter__label">
            {def.label}
          </label>
        </div>
      );
    case 'dropdown':
      return (
        <Labelled id={id} label={def.label}>
          <select id={id} className="lw-select" value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)}>
            <option value="">{def.placeholder ?? 'All'}</option>
            {def.options.map((o) => (
              <option key={o.value} value={o.value} disabled={o.disabled}>
                {o.label}
              </option>
            ))}
          </select>
        </Labelled>
      );
    case 'date':
    case 'date-time':
      return (
        <Labelled id={id} label={def.label}>
          <DateField
            id={id}
            label={def.label}
            value={typeof value === 'string' ? value : ''}
            onChange={onChange}
            withTime={def.type === 'date-time'}
            allowFuture={def.allowFuture}
            min={def.min}
            max={def.max}
            errorId={error ? errorId : undefined}
          />
          {error && (
            <span id={errorId} role="alert" className="lw-filter__error">
              {error}
            </span>
          )}
        </Labelled>
      );
    case 'multiselect':
      return <MultiSelect def={def} value={Array.isArray(value) ? value : []} onChange={onChange} />;
    case 'autocomplete':
      return <Autocomplete def={def} value={value && typeof value === 'object' && !Array.isArray(value) ? value : null} onChange={onChange} />;
  }
}

/** A filter with its label above it. */
function Labelled({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="lw-filter">
      <label htmlFor={id} className="lw-filter__label">
        {label}
      </label>
      {children}
    </div>
  );
}

/** Closes a popup when focus or a click goes elsewhere. */
function useDismiss(ref: RefObject<HTMLElement | null>, open: boolean, close: () => void) {
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) close();
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [ref, open, close]);
}

/** Spec §9: the trigger shows two chips, then a count of the rest. */
export const MULTISELECT_CHIPS = 2;

function MultiSelect({ def, value, onChange }: { def: Extract<FilterDef, { type: 'multiselect' }>; value: string[]; onChange: (v: string[]) => void }) {
  const id = useId();
  const labelId = `${id}-label`;
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(rootRef, open, close);
  useEffect(() => {
    if (open) listRef.current?.focus();
  }, [open]);

  const selected = def.options.filter((o) => value.includes(o.value));
  const toggle = (o: FilterOption) => {
    if (o.disabled) return;
    onChange(value.includes(o.value) ? value.filter((v) => v !== o.value) : [...value, o.value]);
  };
  const onListKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const n = def.options.length;
    if (e.key === 'ArrowDown') setActive((a) => Math.min(a + 1, n - 1));
    else if (e.key === 'ArrowUp') setActive((a) => Math.max(a - 1, 0));
    else if (e.key === 'Home') setActive(0);
    else if (e.key === 'End') setActive(n - 1);
    else if (e.key === ' ' || e.key === 'Enter') {
      const option = def.options[active];
      if (option) toggle(option);
    } else if (e.key === 'Escape' || e.key === 'Tab') {
      setOpen(false);
      if (e.key === 'Escape') triggerRef.current?.focus();
      if (e.key === 'Tab') return;
    } else return;
    e.preventDefault();
    e.stopPropagation();
  };
  const rest = selected.length - MULTISELECT_CHIPS;

  return (
    <div className="lw-filter" ref={rootRef}>
      <span id={labelId} className="lw-filter__label">
        {def.label}
      </span>
      <button
        ref={triggerRef}
        type="button"
        className="lw-btn lw-ms-trigger"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-labelledby={`${labelId} ${id}-value`}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        <span id={`${id}-value`} className="lw-chips">
          {selected.length === 0 && <span className="lw-ms-placeholder">{def.placeholder ?? 'All'}</span>}
          {selected.slice(0, MULTISELECT_CHIPS).map((o) => (
            <span key={o.value} className="lw-chip">
              {o.label}
            </span>
          ))}
          {rest > 0 && <span className="lw-chip">+{rest}</span>}
        </span>
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <ul
          ref={listRef}
          id={listId}
          role="listbox"
          aria-multiselectable="true"
          aria-labelledby={labelId}
          aria-activedescendant={def.options[active] ? `${id}-opt-${active}` : undefined}
          tabIndex={-1}
          className="lw-menu"
          onKeyDown={onListKey}
        >
          {def.options.length === 0 && <li className="lw-menu__empty">{MSG.selectNoResults}</li>}
          {def.options.map((o, i) => (
            <li
              key={o.value}
              id={`${id}-opt-${i}`}
              role="option"
              aria-selected={value.includes(o.value)}
              aria-disabled={o.disabled || undefined}
              data-active={i === active || undefined}
              className="lw-menu__item"
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => {
                setActive(i);
                toggle(o);
              }}
            >
              <input type="checkbox" tabIndex={-1} readOnly checked={value.includes(o.value)} aria-hidden="true" />
              {o.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Autocomplete({
  def,
  value,
  onChange,
}: {
  def: Extract<FilterDef, { type: 'autocomplete' }>;
  value: FilterOption | null;
  onChange: (v: FilterOption | null) => void;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState(value?.label ?? '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [remote, setRemote] = useState<FilterOption[] | null>(null);
  const [busy, setBusy] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(rootRef, open, close);
  useEffect(() => setText(value?.label ?? ''), [value]);

  // Server search: debounced, and a newer query aborts the one in flight.
  const { loadOptions } = def;
  useEffect(() => {
    if (!loadOptions || !open) return;
    const q = text.trim();
    if (!q) {
      setRemote(null);
      return;
    }
    const ctrl = new AbortController();
    const t = setTimeout(() => {
      setBusy(true);
      loadOptions(q, ctrl.signal)
        .then((opts) => !ctrl.signal.aborted && setRemote(opts))
        .catch(() => !ctrl.signal.aborted && setRemote([]))
        .finally(() => !ctrl.signal.aborted && setBusy(false));
    }, 300);
    return () => {
      clearTimeout(t);
      ctrl.abort();
    };
  }, [loadOptions, text, open]);

  const q = text.trim().toLowerCase();
  const options = loadOptions ? (remote ?? []) : q ? (def.options ?? []).filter((o) => o.label.toLowerCase().includes(q)) : [];
  const pick = (o: FilterOption) => {
    if (o.disabled) return;
    onChange(o);
    setText(o.label);
    setOpen(false);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      setOpen(true);
      setActive((a) => Math.min(a + 1, Math.max(options.length - 1, 0)));
    } else if (e.key === 'ArrowUp') setActive((a) => Math.max(a - 1, 0));
    else if (e.key === 'Enter' && open && options[active]) pick(options[active]);
    else if (e.key === 'Escape' && open) setOpen(false);
    else return;
    e.preventDefault();
  };

  return (
    <div className="lw-filter" ref={rootRef}>
      <label htmlFor={id} className="lw-filter__label">
        {def.label}
      </label>
      <input
        id={id}
        type="text"
        role="combobox"
        className="lw-input"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && options[active] ? `${id}-opt-${active}` : undefined}
        placeholder={def.placeholder ?? MSG.filterSearchPlaceholder}
        maxLength={MAX_SEARCH_LENGTH}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
          setOpen(true);
          if (!e.target.value) onChange(null);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={onKey}
      />
      {open && (
        <ul id={listId} role="listbox" aria-label={def.label} className="lw-menu">
          {options.length === 0 && (
            <li className="lw-menu__empty" role="presentation">
              {busy ? 'Loading…' : q ? MSG.selectNoResults : MSG.selectTypeToShow}
            </li>
          )}
          {options.map((o, i) => (
            <li
              key={o.value}
              id={`${id}-opt-${i}`}
              role="option"
              aria-selected={value?.value === o.value}
              aria-disabled={o.disabled || undefined}
              data-active={i === active || undefined}
              className="lw-menu__item"
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(o)}
            >
              {o.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
