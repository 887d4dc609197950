// A checkbox whose change saves keeps the focus while it saves: the rule of ActionButton
// (action-button.tsx) for checkboxes. In a file of its own so that pages without a checkbox (the
// sign-in page) do not load Radix's checkbox.
import { forwardRef } from 'react';
import { Checkbox } from '@radix-ui/themes';

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
