// Labelled inputs for the sign-in screens: the label text is exactly the field name (the
// asterisk of a required field sits outside the label so "Email" stays the accessible name),
// the message under the field is tied to it with aria-describedby.
import { forwardRef, useId, useState, type ComponentProps } from 'react';
import { IconButton, Text, TextField } from '@radix-ui/themes';

type InputProps = Omit<ComponentProps<typeof TextField.Root>, 'id'> & {
  label: string;
  error?: string;
  required?: boolean;
};

export const FormField = forwardRef<HTMLInputElement, InputProps>(function FormField(
  { label, error, required, children, ...input },
  ref,
) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="form-field">
      <div className="form-label-row">
        <label htmlFor={id} className="form-label">{label}</label>
        {required && <span className="required-mark" aria-hidden="true">*</span>}
      </div>
      <TextField.Root
        ref={ref}
        id={id}
        size="3"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        aria-required={required || undefined}
        color={error ? 'red' : undefined}
        {...input}
      >
        {children}
      </TextField.Root>
      {error && (
        <Text as="p" size="2" color="red" id={errorId} className="form-error">
          {error}
        </Text>
      )}
    </div>
  );
});

/** Spec §2: password inputs toggle between hidden and visible text. */
export const PasswordField = forwardRef<HTMLInputElement, Omit<InputProps, 'type'>>(function PasswordField(props, ref) {
  const [visible, setVisible] = useState(false);
  return (
    <FormField ref={ref} {...props} type={visible ? 'text' : 'password'}>
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
