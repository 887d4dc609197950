// What SettingSwitch and ActionCheckbox share: a toggle whose change saves keeps the focus while it
// saves (the rule of ActionButton, action-button.tsx).

export type BusyToggleProps = {
  checked: boolean;
  onCheckedChange: (on: boolean) => void;
  /** The user may not change it (or a rule forbids it now): disabled. */
  readOnly?: boolean;
  /** Its change (or another on the page) is saving: input is ignored, the focus stays. */
  busy?: boolean;
};

/** A toggle's state props: `readOnly` disables it; while `busy` it stays enabled and focusable and says it is busy. */
export const busyToggle = (busy: boolean, readOnly: boolean) => ({
  disabled: readOnly,
  'aria-busy': busy || undefined,
  'aria-disabled': busy || undefined,
  'data-busy': busy || undefined,
});
