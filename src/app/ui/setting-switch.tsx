// The one switch of the product: a change that saves (or re-renders the page) never takes the focus
// away from it. While its change is saving the switch stays enabled and focusable — it says it is
// busy (aria-busy, aria-disabled) and ignores input — because disabling the focused element makes
// the browser drop the focus to <body>, and the next Space would do nothing. `readOnly` (the user
// may not change it) disables it; SwitchState beside it says On/Off in words.
import { forwardRef } from 'react';
import { Switch } from '@radix-ui/themes';
import { busyToggle, type BusyToggleProps } from './busy-toggle';

/** readOnly: SwitchState beside it still says On/Off. */
type Props = Omit<React.ComponentPropsWithoutRef<typeof Switch>, 'disabled' | 'onCheckedChange'> & BusyToggleProps;

export const SettingSwitch = forwardRef<HTMLButtonElement, Props>(function SettingSwitch(
  { checked, onCheckedChange, readOnly = false, busy = false, ...rest },
  ref,
) {
  return (
    <Switch
      ref={ref}
      {...rest}
      checked={checked}
      {...busyToggle(busy, readOnly)}
      onCheckedChange={(on) => {
        if (!busy) onCheckedChange(on);
      }}
    />
  );
});
