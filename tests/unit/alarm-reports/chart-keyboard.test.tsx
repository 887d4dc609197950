// The Type of Alarms chart is focusable: arrow keys, Home and End move uPlot's cursor from point to
// point (so its legend shows that point's values, as hovering does) and a readout says them.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AlarmTypesChart, pointAfterKey, type TypePoint } from '../../../src/app/features/alarm-reports/alarm-charts';

const cursor = vi.hoisted(() => ({ moves: [] as { left: number; top: number }[] }));
vi.mock('uplot', () => ({
  default: class {
    constructor(_opts: unknown, _data: unknown, el: HTMLElement) {
      el.appendChild(document.createElement('canvas'));
    }
    valToPos(v: number, scale: string) {
      return scale === 'x' ? v * 100 : 200 - v * 10;
    }
    setCursor(pos: { left: number; top: number }) {
      cursor.moves.push(pos);
    }
    destroy() {}
  },
}));

const points: TypePoint[] = [
  { label: '2026-11-20', counts: { 1: 3, 2: 1 } },
  { label: '2026-11-21', counts: { 1: 0, 2: 4 } },
  { label: '2026-11-22', counts: { 1: 7, 2: 2 } },
];

beforeEach(() => {
  cursor.moves = [];
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(private cb: ResizeObserverCallback) {}
      observe() {
        this.cb([{ contentRect: { width: 600 } } as ResizeObserverEntry], this as unknown as ResizeObserver);
      }
      disconnect() {}
    },
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('chart values on keyboard focus', () => {
  it('steps between points, clamps at the ends and jumps with Home and End', () => {
    expect(pointAfterKey('ArrowRight', null, 3)).toBe(0);
    expect(pointAfterKey('ArrowLeft', null, 3)).toBe(2);
    expect(pointAfterKey('ArrowRight', 2, 3)).toBe(2);
    expect(pointAfterKey('ArrowLeft', 0, 3)).toBe(0);
    expect(pointAfterKey('End', 0, 3)).toBe(2);
    expect(pointAfterKey('Home', 2, 3)).toBe(0);
    expect(pointAfterKey('Enter', 1, 3)).toBeNull();
    expect(pointAfterKey('ArrowRight', null, 0)).toBeNull();
  });

  it('moves the cursor and reads out the focused point', async () => {
    const user = userEvent.setup();
    render(<AlarmTypesChart points={points} rangeOption={1} />);
    const plot = screen.getByTestId('alarm-types-plot');
    await waitFor(() => expect(plot.querySelector('canvas')).not.toBeNull());
    const readout = screen.getByTestId('alarm-types-readout');
    expect(readout).toHaveTextContent(/^$/);

    await user.tab();
    await user.tab();
    await user.tab(); // past the two series checkboxes
    expect(plot).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(readout.textContent).toMatch(/: .*3.*1$/);
    expect(cursor.moves.at(-1)).toEqual({ left: 0, top: 170 });

    await user.keyboard('{End}');
    expect(readout.textContent).toMatch(/: .*7.*2$/);
    expect(cursor.moves.at(-1)).toEqual({ left: 200, top: 130 });

    await user.keyboard('{ArrowLeft}');
    expect(readout.textContent).toMatch(/: .*0.*4$/);
    expect(cursor.moves.at(-1)).toEqual({ left: 100, top: 200 });
    expect(plot).toHaveAttribute('aria-describedby', readout.id);

    await user.tab();
    expect(readout).toHaveTextContent(/^$/);
  });
});
