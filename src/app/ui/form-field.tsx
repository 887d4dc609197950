// The one labelled form field of the app (sign-in screens, settings, profile, person form): the
// label text is exactly the field name — the required asterisk sits next to the label, outside
// it, so 'Email' stays the accessible name — and the message under the field is tied to it with
// aria-describedby. The control gets its id, aria-invalid, aria-required and aria-describedby
// from here. PasswordField adds the spec's show/hide toggle (§2 "Password inputs toggle between
// hidden and visible text").
import { cloneElement, forwardRef, isValidElement, useId, useState, type ComponentProps, type ReactElement, type ReactNode } from 'react';
import { IconButton, TextField } from '@radix-ui/themes';
import './form-field.css';

export type FieldControlProps = {
  id: string;
  'aria-invalid'?: boolean;
  'aria-required'?: boolean;
  'aria-describedby'?: string;
};

export type FormFieldProps = {
  label: string;
  required?: boolean;
  error?: string;
  hint?: ReactNode;
  /** Use a fieldset + legend (for groups such as checkbox lists) instead of label + control. */
  group?: boolean;
  /** The control element, or a function receiving the ids and aria attributes to spread. */
  children: ReactElement<FieldControlProps> | ((control: FieldControlProps) => ReactNode);
  className?: string;
};

const Asterisk = () => (
  <span className="form-field__required" aria-hidden="true">
    *
  </span>
);

export function FormField({ label, required, error, hint, group, children, className }: FormFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined;
  const control: FieldControlProps = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-required': required || undefined,
    'aria-describedby': describedBy,
  };
  const rendered = typeof children === 'function' ? children(control) : isValidElement(children) ? cloneElement(children, control) : children;
  const messages = (
    <>
      {hint && (
        <p id={hintId} className="form-field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="form-field__error" role="alert">
          {error}
        </p>
      )}
    </>
  );
  const classes = `form-field${error ? ' form-field--invalid' : ''}${className ? ` ${className}` : ''}`;
  if (group) {
    return (
      <fieldset className={`${classes} form-field--group`} aria-describedby={describedBy} aria-invalid={error ? true : undefined}>
        <legend className="form-field__label">
          {label}
          {required && <Asterisk />}
        </legend>
        {rendered}
        {messages}
      </fieldset>
    );
  }
  return (
    <div className={classes}>
      <div className="form-field__label-row">
        <label htmlFor={id} className="form-field__label">
          {label}
        </label>
        {required && <Asterisk />}
      </div>
      {rendered}
      {messages}
    </div>
  );
}

type TextInputProps = Omit<ComponentProps<typeof TextField.Root>, 'id'>;
type PasswordFieldProps = Omit<TextInputProps, 'type'> & { label: string; error?: string; required?: boolean; hint?: ReactNode };

/** A password input in a FormField, with the show/hide toggle. */
export const PasswordField = forwardRef<HTMLInputElement, PasswordFieldProps>(function PasswordField({ label, error, required, hint, ...input }, ref) {
  const [visible, setVisible] = useState(false);
  return (
    <FormField label={label} error={error} required={required} hint={hint}>
      {(aria) => (
        <TextField.Root ref={ref} {...input} {...aria} type={visible ? 'text' : 'password'} color={error ? 'red' : undefined}>
          <TextField.Slot side="right">
            <IconButton
              type="button"
              variant="ghost"
              size="2"
              aria-label={visible ? 'Hide password' : 'Show password'}
              aria-pressed={visible}
              onClick={() => setVisible((x) => !x)}
            >
              <EyeIcon crossed={visible} />
            </IconButton>
          </TextField.Slot>
        </TextField.Root>
      )}
    </FormField>
  );
});

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z" />
      <circle cx="12" cy="12" r="3" />
      {crossed && <line x1="3" y1="3" x2="21" y2="21" />}
    </svg>
  );
}
