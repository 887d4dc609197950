// A labelled form control with the spec's required asterisk and its error message. The control
// gets its id, aria-invalid, aria-required and aria-describedby from here, so every field is
// announced with its label and its message.
import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react';
import './data-table/list-widgets.css';

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
  const rendered =
    typeof children === 'function' ? children(control) : isValidElement(children) ? cloneElement(children, control) : children;
  const labelContent = (
    <>
      {label}
      {required && (
        <span className="lw-field__required" aria-hidden="true">
          *
        </span>
      )}
    </>
  );
  const messages = (
    <>
      {hint && (
        <p id={hintId} className="lw-field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="lw-field__error" role="alert">
          {error}
        </p>
      )}
    </>
  );
  if (group) {
    return (
      <fieldset className={`lw-field ${className ?? ''}`} aria-describedby={describedBy} aria-invalid={error ? true : undefined} style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className="lw-field__label">{labelContent}</legend>
        {rendered}
        {messages}
      </fieldset>
    );
  }
  return (
    <div className={`lw-field ${className ?? ''}`}>
      <label htmlFor={id} className="lw-field__label">
        {labelContent}
      </label>
      {rendered}
      {messages}
    </div>
  );
}
