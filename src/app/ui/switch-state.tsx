// A read-only switch says in words whether it is on: a disabled switch alone is read only by
// comparing knob positions and faded colours.
import { Badge } from '@radix-ui/themes';

/** 'On' / 'Off' beside a switch the user cannot change (nothing when they can). */
export function SwitchState({ on, readOnly }: { on: boolean; readOnly: boolean }) {
  if (!readOnly) return null;
  return (
    <Badge size="1" variant="soft" color={on ? 'green' : 'gray'} data-testid="switch-state">
      {on ? 'On' : 'Off'}
    </Badge>
  );
}
