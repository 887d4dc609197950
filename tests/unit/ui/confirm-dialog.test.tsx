import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Theme } from '@radix-ui/themes';
import { cancelAllConfirms, confirm, ConfirmHost } from '../../../src/app/ui/confirm-dialog';
import { MSG } from '../../../src/shared/messages';
import { slowMachine } from './slow-machine';

slowMachine();

afterEach(() => {
  act(() => cancelAllConfirms());
  cleanup();
});

const host = () =>
  render(
    <Theme>
      <ConfirmHost />
    </Theme>,
  );

describe('confirm()', () => {
  it('resolves true on the confirm button', async () => {
    host();
    let answer: Promise<boolean>;
    act(() => {
      answer = confirm({ title: 'Leave?', message: MSG.unsavedChanges, confirmLabel: 'Leave' });
    });
    const dialog = await screen.findByRole('alertdialog', { name: 'Leave?' });
    expect(dialog).toHaveTextContent(MSG.unsavedChanges);
    await userEvent.click(screen.getByRole('button', { name: 'Leave' }));
    await expect(answer!).resolves.toBe(true);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('focus starts on Cancel; Enter there and Escape both resolve false', async () => {
    host();
    let first: Promise<boolean>;
    act(() => {
      first = confirm({ message: MSG.unsavedChanges });
    });
    const cancel = await screen.findByRole('button', { name: MSG.uiCancel });
    await waitFor(() => expect(cancel).toHaveFocus());
    await userEvent.keyboard('{Enter}');
    await expect(first!).resolves.toBe(false);

    let second: Promise<boolean>;
    act(() => {
      second = confirm({ message: 'Again?' });
    });
    await screen.findByRole('alertdialog');
    await userEvent.keyboard('{Escape}');
    await expect(second!).resolves.toBe(false);
  });

  it('queues requests and answers them one at a time', async () => {
    host();
    let a: Promise<boolean>;
    let b: Promise<boolean>;
    act(() => {
      a = confirm({ message: 'First?' });
      b = confirm({ message: 'Second?', confirmLabel: 'Yes' });
    });
    expect(await screen.findByText('First?')).toBeInTheDocument();
    expect(screen.queryByText('Second?')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await expect(a!).resolves.toBe(true);
    expect(await screen.findByText('Second?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: MSG.uiCancel }));
    await expect(b!).resolves.toBe(false);
  });
});
