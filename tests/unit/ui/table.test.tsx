// A Radix table's scroll area is a region named after the table, in the Tab order exactly while it
// has something to scroll (axe: scrollable-region-focusable).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { Theme } from '@radix-ui/themes';
import { keyboardScrollable, Table } from '../../../src/app/ui/table';
import { stubResizeObserver } from '../../helpers/resize-observer';

afterEach(cleanup);
// Radix's scroll area watches its size; jsdom has no ResizeObserver.
beforeAll(stubResizeObserver);

/** A box of 300 × 100 px whose content is `w` × `h` px. */
function box(w: number, h: number) {
  const el = document.createElement('div');
  Object.defineProperty(el, 'clientWidth', { value: 300 });
  Object.defineProperty(el, 'clientHeight', { value: 100 });
  Object.defineProperty(el, 'scrollWidth', { value: w });
  Object.defineProperty(el, 'scrollHeight', { value: h });
  return el;
}

describe('a table that scrolls can be reached by keyboard', () => {
  it('is a named region in the Tab order while its content is wider or taller than it', () => {
    const wide = box(700, 100);
    keyboardScrollable(wide, 'History');
    expect(wide).toHaveAttribute('role', 'region');
    expect(wide).toHaveAttribute('aria-label', 'History');
    expect(wide.tabIndex).toBe(0);
    const tall = box(300, 400);
    keyboardScrollable(tall, 'History');
    expect(tall).toHaveAttribute('tabindex', '0');
  });

  it('adds no Tab stop while everything is in sight', () => {
    const fits = box(301, 100); // a pixel of rounding is not scrolling
    keyboardScrollable(fits, 'Single sign-on domains');
    expect(fits).toHaveAttribute('aria-label', 'Single sign-on domains');
    expect(fits).not.toHaveAttribute('tabindex');
  });

  it("names Radix's scroll area after the table, not the wrapper", () => {
    render(
      <Theme>
        <Table.Root aria-label="History">
          <Table.Body>
            <Table.Row>
              <Table.Cell>an entry</Table.Cell>
            </Table.Row>
          </Table.Body>
        </Table.Root>
      </Theme>,
    );
    const region = screen.getByRole('region', { name: 'History' });
    expect(region).toHaveClass('rt-ScrollAreaViewport');
    expect(region).toContainElement(screen.getByRole('cell', { name: 'an entry' }));
    expect(screen.getAllByLabelText('History')).toHaveLength(1);
  });
});
