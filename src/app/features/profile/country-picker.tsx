// Country picker of a phone number (spec §2 "country-flag number picker with search", list height
// 23.5rem): a button showing the country's mark (ISO code badge, see CountryBadge) opens a popover with a text filter and a
// listbox. Keyboard: Enter/Space/ArrowDown on the button opens it; in the filter ArrowUp/Down,
// PageUp/PageDown and Ctrl+Home/End move the highlight, Enter picks, Escape closes; focus goes
// back to the button. The filter matches the country name (names starting with the text first),
// the ISO code and the dial code ('+44' or '44').
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Popover, Text, TextField } from '@radix-ui/themes';
import { MSG } from '../../../shared/messages';
import type { Country } from './phone';
import { PROFILE_TEXT } from './text';
import './profile.css';
import { ActionButton } from '../../ui/action-button';

/** Lower case without accents: 'Åland' matches 'aland'. */
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

export function filterCountries(countries: readonly Country[], query: string): Country[] {
  const q = fold(query.trim());
  if (!q) return [...countries];
  const digits = q.replace(/^\+/, '');
  const starts: Country[] = [];
  const others: Country[] = [];
  for (const c of countries) {
    const name = fold(c.Name);
    const dial = c.PhoneNumberCode.replace(/^\+/, '');
    if (name.startsWith(q)) starts.push(c);
    else if (name.includes(q) || c.Code.toLowerCase() === q || (/^\d+$/.test(digits) && dial.startsWith(digits))) others.push(c);
  }
  return [...starts, ...others];
}

export type CountryPickerProps = {
  countries: readonly Country[];
  /** ISO code, '' for none */
  value: string;
  onChange: (code: string) => void;
  onBlur?: () => void;
  /** What the number is, e.g. 'Personal': the button is named '{label} country: …'. */
  label: string;
  disabled?: boolean;
};

export function CountryPicker({ countries, value, onChange, onBlur, label, disabled }: CountryPickerProps) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const baseId = useId();
  const listId = `${baseId}-list`;
  const optionId = (i: number) => `${baseId}-opt-${i}`;

  const shown = useMemo(() => filterCountries(countries, query), [countries, query]);
  const selected = countries.find((c) => c.Code === value);

  const openWith = (next: boolean) => {
    setOpen(next);
    if (next) {
      setQuery('');
      setActive(
        Math.max(
          0,
          countries.findIndex((c) => c.Code === value),
        ),
      );
    } else onBlur?.();
  };

  // Keep the highlighted option in view.
  useEffect(() => {
    if (!open) return;
    const el = listRef.current?.querySelector<HTMLElement>(`#${CSS.escape(optionId(active))}`);
    el?.scrollIntoView?.({ block: 'nearest' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, active, shown]);

  const pick = (c: Country | undefined) => {
    if (!c) return;
    if (c.Code !== value) onChange(c.Code);
    openWith(false);
    // At once, not after the closing animation: a Tab typed right after Enter lands on the number.
    buttonRef.current?.focus();
  };

  const move = (to: number) => setActive(shown.length ? Math.min(shown.length - 1, Math.max(0, to)) : 0);

  const onFilterKey = (e: KeyboardEvent<HTMLInputElement>) => {
    const page = 8;
    if (e.key === 'ArrowDown') move(active + 1);
    else if (e.key === 'ArrowUp') move(active - 1);
    else if (e.key === 'PageDown') move(active + page);
    else if (e.key === 'PageUp') move(active - page);
    else if (e.key === 'Home' && e.ctrlKey) move(0);
    else if (e.key === 'End' && e.ctrlKey) move(shown.length - 1);
    else if (e.key === 'Enter') pick(shown[active]);
    else return;
    e.preventDefault();
  };

  const buttonName = selected ? PROFILE_TEXT.countryButton(label, selected.Name, selected.PhoneNumberCode) : PROFILE_TEXT.countryButtonNone(label);

  return (
    <Popover.Root open={open} onOpenChange={openWith}>
      <Popover.Trigger>
        <ActionButton
          ref={buttonRef}
          type="button"
          variant="surface"
          color="gray"
          className="profile-country-button"
          aria-label={buttonName}
          title={buttonName}
          aria-haspopup="listbox"
          disabled={disabled}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' && !open) {
              e.preventDefault();
              openWith(true);
            }
          }}
        >
          {/* The dial code is shown in the number field next to this button. */}
          <CountryBadge code={selected?.Code} />
          <ChevronIcon />
        </ActionButton>
      </Popover.Trigger>
      <Popover.Content
        className="profile-country-popover"
        align="start"
        width="22rem"
        maxWidth="calc(100vw - 2rem)"
        aria-label={PROFILE_TEXT.countryListFor(label)}
      >
        <TextField.Root
          autoFocus
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onFilterKey}
          placeholder={PROFILE_TEXT.countrySearch}
          aria-label={PROFILE_TEXT.countrySearch}
          role="combobox"
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={shown.length ? optionId(active) : undefined}
          autoComplete="off"
          spellCheck={false}
        />
        <div ref={listRef} id={listId} role="listbox" aria-label={PROFILE_TEXT.countryListFor(label)} className="profile-country-list" tabIndex={-1}>
          {shown.length === 0 && (
            <Text as="div" size="2" color="gray" className="profile-country-empty" role="status">
              {MSG.selectNoResults}
            </Text>
          )}
          {shown.map((c, i) => (
            <div
              key={c.Code}
              id={optionId(i)}
              role="option"
              aria-selected={c.Code === value}
              data-active={i === active || undefined}
              className="profile-country-option"
              onMouseMove={() => i !== active && setActive(i)}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(c)}
            >
              <CountryBadge code={c.Code} />
              <span className="profile-country-name">{c.Name}</span>
              <span className="profile-country-dial">+{c.PhoneNumberCode}</span>
            </div>
          ))}
        </div>
      </Popover.Content>
    </Popover.Root>
  );
}

/**
 * The country's mark: its ISO code in a small badge. Not a flag emoji: a machine without an
 * emoji font (a bare Linux desktop, many kiosks) shows those as two boxed letters or nothing, and
 * no flag image set is bundled. The code reads the same everywhere ('GB', 'IE', 'US').
 */
export function CountryBadge({ code }: { code?: string }) {
  return (
    <span aria-hidden="true" className="country-badge" data-empty={code ? undefined : true}>
      {code || '··'}
    </span>
  );
}

function ChevronIcon() {
  return (
    <svg width="10" height="10" viewBox="0 0 15 15" fill="none" aria-hidden="true">
      <path d="M3.5 5.5 7.5 9.5 11.5 5.5" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
