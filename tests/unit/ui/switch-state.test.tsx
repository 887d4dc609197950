// Read-only switches are legible: on or off in words, not only by the knob's position.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { Switch, Theme } from '@radix-ui/themes';
import { SwitchState } from '../../../src/app/ui/switch-state';

afterEach(cleanup);

function Row({ on, readOnly }: { on: boolean; readOnly: boolean }) {
  return (
    <Theme>
      <label>
        <Switch checked={on} disabled={readOnly} />
        Fall detection
        <SwitchState on={on} readOnly={readOnly} />
      </label>
    </Theme>
  );
}

describe('read-only switch state', () => {
  it('says On or Off beside a switch the user cannot change', () => {
    render(<Row on readOnly />);
    expect(screen.getByTestId('switch-state').textContent).toBe('On');
    cleanup();
    render(<Row on={false} readOnly />);
    expect(screen.getByTestId('switch-state').textContent).toBe('Off');
  });
  it('says nothing when the switch can be changed (its position is the answer)', () => {
    render(<Row on readOnly={false} />);
    expect(screen.queryByTestId('switch-state')).toBeNull();
  });
});
