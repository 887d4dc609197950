import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { first } from '../../helpers/lists';
import { act, render, screen } from '@testing-library/react';
import { cleanup } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { dismissAll, getToasts, toast, ToastHost, TOAST_LIMIT } from '../../../src/app/ui/toast';

beforeEach(() => {
  dismissAll();
  window.history.replaceState(null, '', '/asset-management');
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const messages = () => getToasts().map((t) => t.message);

describe('toasts', () => {
  it('suppress duplicates', () => {
    toast.error('Failed to export devices.');
    toast.error('Failed to export devices.');
    expect(messages()).toEqual(['Failed to export devices.']);
  });

  it('show at most one at a time by default: the newest replaces the older', () => {
    expect(TOAST_LIMIT.default).toBe(1);
    toast.success('first');
    toast.info('second');
    expect(messages()).toEqual(['second']);
  });

  it('allow two at once in the sign-in and persons areas', () => {
    toast.success('one', { area: 'persons' });
    toast.success('two', { area: 'persons' });
    expect(messages()).toEqual(['one', 'two']);
    toast.success('three', { area: 'persons' });
    expect(messages()).toEqual(['two', 'three']);
  });

  it('take the area from the current path when the caller does not name it', () => {
    window.history.replaceState(null, '', '/login');
    toast.error('a');
    toast.error('b');
    expect(messages()).toEqual(['a', 'b']);
    window.history.replaceState(null, '', '/persons/edit/123');
    toast.error('c');
    expect(messages()).toEqual(['b', 'c']);
  });

  it('render accessibly (errors as alerts, others as status) and can be dismissed', async () => {
    render(<ToastHost />);
    act(() => {
      toast.success('Person added.', { area: 'persons' });
      toast.error('Something went wrong.', { area: 'persons' });
    });
    expect(screen.getByRole('status')).toHaveTextContent('Person added.');
    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong.');
    await userEvent.click(first(screen.getAllByRole('button', { name: 'Dismiss notification' })));
    expect(screen.queryByText('Person added.')).toBeNull();
    expect(screen.getByText('Something went wrong.')).toBeInTheDocument();
  });

  it('go away by themselves', () => {
    vi.useFakeTimers();
    toast.success('Profile updated successfully.');
    expect(messages()).toHaveLength(1);
    vi.advanceTimersByTime(10_000);
    expect(messages()).toHaveLength(0);
  });
});
