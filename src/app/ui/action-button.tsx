// The product's buttons and checkboxes that change something: the focus never falls to <body>
// because of the change. A browser drops the focus of an element that becomes disabled, and Radix's
// `loading` disables its button, so a Save pressed with Space (or a row's Pause) lost the focus the
// moment it started saving and the next key did nothing.
// - `busy` (its change is running): the spinner shows over the label, the control stays enabled
//   and focusable, says it is busy (aria-busy, aria-disabled) and ignores presses (and the form
//   submit a press would make).
// - `disabled` (nothing to do now, e.g. a form without changes): natively disabled, except while
//   it holds the focus (a save that just finished makes the form clean): then it says so with
//   aria-disabled and ignores presses, and becomes natively disabled once the focus moves on.
// SettingSwitch (setting-switch.tsx) is the same rule for switches; keepRowFocus (row-focus.ts)
// for a row action that removes its own row.
import { forwardRef, useState, type FocusEvent, type MouseEvent } from 'react';
import { Button, Checkbox } from '@radix-ui/themes';

type ButtonProps = Omit<React.ComponentPropsWithoutRef<typeof Button>, 'loading'> & {
  /** Its change is running: spinner, input ignored, the focus stays. */
  busy?: boolean;
};

/**
 * A `disabled` that never drops the focus, for any button (the pagination's plain buttons too):
 * natively disabled, except while the element holds the focus, when it is aria-disabled instead
 * (`inert` says to ignore a press). Spread `props` on the element.
 */
export function useFocusSafeDisabled<E extends HTMLElement>(
  disabled: boolean,
  handlers: { onFocus?: (e: FocusEvent<E>) => void; onBlur?: (e: FocusEvent<E>) => void } = {},
) {
  const [held, setHeld] = useState(false);
  return {
    inert: disabled,
    props: {
      disabled: disabled && !held,
      'aria-disabled': disabled || undefined,
      onFocus: (e: FocusEvent<E>) => {
        setHeld(true);
        handlers.onFocus?.(e);
      },
      onBlur: (e: FocusEvent<E>) => {
        setHeld(false);
        handlers.onBlur?.(e);
      },
    },
  };
}

export const ActionButton = forwardRef<HTMLButtonElement, ButtonProps>(function ActionButton(
  { busy = false, disabled = false, onClick, onFocus, onBlur, children, ...rest },
  ref,
) {
  const safe = useFocusSafeDisabled<HTMLButtonElement>(disabled, { onFocus, onBlur });
  const inert = busy || disabled;
  return (
    <Button
      ref={ref}
      {...rest}
      {...safe.props}
      // Radix shows its spinner for `loading`; `disabled` given explicitly keeps the button enabled.
      loading={busy}
      aria-disabled={inert || undefined}
      // Radix draws a disabled or loading button from data-disabled: it looks as it always did.
      data-disabled={inert || undefined}
      aria-busy={busy || undefined}
      data-busy={busy || undefined}
      onClick={(e: MouseEvent<HTMLButtonElement>) => {
        if (inert) {
          e.preventDefault();
          return;
        }
        onClick?.(e);
      }}
    >
      {children}
    </Button>
  );
});

type CheckboxProps = Omit<React.ComponentPropsWithoutRef<typeof Checkbox>, 'disabled' | 'onCheckedChange' | 'checked'> & {
  checked: boolean;
  onCheckedChange: (on: boolean) => void;
  /** The user may not change it: disabled. */
  readOnly?: boolean;
  /** Its change is saving: input ignored, the focus stays. */
  busy?: boolean;
};

/** A checkbox whose change saves: like SettingSwitch, busy while saving and never disabled for it. */
export const ActionCheckbox = forwardRef<HTMLButtonElement, CheckboxProps>(function ActionCheckbox(
  { checked, onCheckedChange, readOnly = false, busy = false, ...rest },
  ref,
) {
  return (
    <Checkbox
      ref={ref}
      {...rest}
      checked={checked}
      disabled={readOnly}
      aria-readonly={readOnly || undefined}
      aria-busy={busy || undefined}
      aria-disabled={busy || undefined}
      data-busy={busy || undefined}
      onCheckedChange={(v) => {
        if (!busy && !readOnly) onCheckedChange(v === true);
      }}
    />
  );
});
