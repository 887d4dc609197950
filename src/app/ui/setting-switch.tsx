// The one switch of the product: a change that saves (or re-renders the page) never takes the focus
// away from it. While its change is saving the switch stays enabled and focusable — it says it is
// busy (aria-busy, aria-disabled) and ignores input — because disabling the focused element makes
// the browser drop the focus to <body>, and the next Space would do nothing. `readOnly` (the user
// may not change it) disables it; SwitchState beside it says On/Off in words.
import { forwardRef } from 'react';
import { Switch } from '@radix-ui/themes';

type Props = Omit<React.ComponentPropsWithoutRef<typeof Switch>, 'disabled' | 'onCheckedChange'> & {
  checked: boolean;
  onCheckedChange: (on: boolean) => void;
  /** The user may not change it (or a rule forbids it now): disabled (SwitchState says On/Off beside it). */
  readOnly?: boolean;
  /** Its change (or another on the page) is saving: input is ignored, the focus stays. */
  busy?: boolean;
};

export const SettingSwitch = forwardRef<HTMLButtonElement, Props>(function SettingSwitch(
  { checked, onCheckedChange, readOnly = false, busy = false, ...rest },
  ref,
) {
  return (
    <Switch
      ref={ref}
      {...rest}
      checked={checked}
      disabled={readOnly}
      aria-busy={busy || undefined}
      aria-disabled={busy || undefined}
      data-busy={busy || undefined}
      onCheckedChange={(on) => {
        if (!busy) onCheckedChange(on);
      }}
    />
  );
});
