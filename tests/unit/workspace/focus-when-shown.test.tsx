// A page that focuses one of its fields when its tab becomes active (Bulk Update's serial field)
// leaves the focus alone when the tab became active because one of its controls is being pressed
// (the press on a page in the other pane makes that pane the focused one). In a browser that focus scrolled the field into view and moved the
// pressed button from under the pointer: its click was lost (tests/e2e/bulk.e2e.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { useFocusWhenShown } from '../../../src/app/workspace/focus-when-shown';

function Page({ active }: { active: boolean }) {
  const root = useRef<HTMLDivElement>(null);
  const field = useRef<HTMLInputElement>(null);
  useFocusWhenShown(active, field, root);
  return (
    <div ref={root}>
      <input ref={field} aria-label="Serial Number" />
      <button type="button">Clear</button>
    </div>
  );
}

afterEach(cleanup);

describe('useFocusWhenShown', () => {
  it('focuses the field when the tab becomes active', () => {
    const { rerender } = render(<Page active={false} />);
    expect(document.activeElement).toBe(document.body);
    rerender(<Page active />);
    expect(document.activeElement).toBe(screen.getByLabelText('Serial Number'));
  });

  it('leaves the focus alone when a press on one of the page controls made the tab active', () => {
    const { rerender } = render(<Page active={false} />);
    const button = screen.getByRole('button', { name: 'Clear' });
    fireEvent.pointerDown(button);
    rerender(<Page active />);
    expect(document.activeElement).not.toBe(screen.getByLabelText('Serial Number'));
    fireEvent.pointerUp(button);
    // a later showing, by keyboard: the field again
    rerender(<Page active={false} />);
    rerender(<Page active />);
    expect(document.activeElement).toBe(screen.getByLabelText('Serial Number'));
  });

  it('a press elsewhere does not keep the field from the focus', () => {
    const outside = document.createElement('button');
    document.body.appendChild(outside);
    const { rerender } = render(<Page active={false} />);
    fireEvent.pointerDown(outside);
    rerender(<Page active />);
    expect(document.activeElement).toBe(screen.getByLabelText('Serial Number'));
    fireEvent.pointerUp(outside);
    outside.remove();
  });
});
