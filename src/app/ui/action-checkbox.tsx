// A checkbox whose change saves keeps the focus while it saves: the rule of ActionButton
// (action-button.tsx) for checkboxes. In a file of its own so that pages without a checkbox (the
// sign-in page) do not load Radix's checkbox.
import { forwardRef } from 'react';
import { Checkbox } from '@radix-ui/themes';
import { busyToggle, type BusyToggleProps } from './busy-toggle';

type CheckboxProps = Omit<React.ComponentPropsWithoutRef<typeof Checkbox>, 'disabled' | 'onCheckedChange' | 'checked'> & BusyToggleProps;

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
      {...busyToggle(busy, readOnly)}
      aria-readonly={readOnly || undefined}
      onCheckedChange={(v) => {
        if (!busy && !readOnly) onCheckedChange(v === true);
      }}
    />
  );
});
