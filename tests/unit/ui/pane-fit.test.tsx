// Dialogs open over the pane they belong to; compact tables keep only the leading columns that fit.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Theme } from '@radix-ui/themes';
import { Dialog, DialogLayerContext, dialogLayerOf } from '../../../src/app/ui/dialog';
import { cancelAllConfirms, confirm, ConfirmHost } from '../../../src/app/ui/confirm-dialog';
import { COMPACT_TABLE_WIDTH, fitColumns, trackMinPx } from '../../../src/app/ui/data-table/data-table';

afterEach(() => {
  act(() => cancelAllConfirms());
  cleanup();
  document.body.innerHTML = '';
});

function paneLayer() {
  const pane = document.createElement('div');
  pane.dataset.dialogLayer = '';
  const inner = document.createElement('button');
  pane.appendChild(inner);
  document.body.appendChild(pane);
  return { pane, inner };
}

describe('dialogs belong to their pane', () => {
  it("a page's dialog renders into its pane's layer", () => {
    const { pane } = paneLayer();
    render(
      <Theme>
        <DialogLayerContext.Provider value={() => pane}>
          <Dialog.Root open>
            <Dialog.Content aria-describedby={undefined}>
              <Dialog.Title>Note</Dialog.Title>
            </Dialog.Content>
          </Dialog.Root>
        </DialogLayerContext.Provider>
      </Theme>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Note' });
    expect(pane.contains(dialog)).toBe(true);
    expect(dialogLayerOf(dialog)).toBe(pane);
  });

  it('outside a pane it covers the window, as before', () => {
    render(
      <Theme>
        <Dialog.Root open>
          <Dialog.Content aria-describedby={undefined}>
            <Dialog.Title>Palette</Dialog.Title>
          </Dialog.Content>
        </Dialog.Root>
      </Theme>,
    );
    expect(dialogLayerOf(screen.getByRole('dialog', { name: 'Palette' }))).toBeNull();
  });

  it('a confirmation asked from inside a pane opens over that pane', async () => {
    const { pane, inner } = paneLayer();
    render(
      <Theme>
        <ConfirmHost />
      </Theme>,
    );
    inner.focus();
    act(() => void confirm({ title: 'Save?', message: 'Save the device?' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Save?' });
    expect(pane.contains(dialog)).toBe(true);
  });
});

describe('a confirmation about a pane', () => {
  it('opens over the pane it names, not the one holding the focus', async () => {
    const a = paneLayer();
    const b = paneLayer();
    render(
      <Theme>
        <ConfirmHost />
      </Theme>,
    );
    a.inner.focus();
    act(() => void confirm({ title: 'Leave?', message: 'Leave the page?', layer: b.pane }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Leave?' });
    expect(b.pane.contains(dialog)).toBe(true);
    expect(a.pane.contains(dialog)).toBe(false);
  });

  it('layer null covers the window even with the focus in a pane', async () => {
    const a = paneLayer();
    render(
      <Theme>
        <ConfirmHost />
      </Theme>,
    );
    a.inner.focus();
    act(() => void confirm({ title: 'Sign out?', message: 'Sign out now?', layer: null }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Sign out?' });
    expect(dialogLayerOf(dialog)).toBeNull();
  });
});

describe('compact tables', () => {
  const cols = [
    { id: 'date', width: 'minmax(10.5rem, 0.9fr)' },
    { id: 'account', width: 'minmax(150px, 1.2fr)' },
    { id: 'status', width: '94px' },
    { id: 'any' },
  ];
  it('reads the least width of a track', () => {
    expect(trackMinPx('160px')).toBe(160);
    expect(trackMinPx('minmax(140px, 1fr)')).toBe(140);
    expect(trackMinPx('minmax(10.5rem, 0.9fr)')).toBe(168);
    expect(trackMinPx('2fr')).toBe(0);
  });
  it('keeps the first column, then the others in order while they fit', () => {
    expect(COMPACT_TABLE_WIDTH).toBeGreaterThan(300);
    expect(fitColumns(cols, 300).map((c) => c.id)).toEqual(['date', 'status']);
    expect(fitColumns(cols, 330).map((c) => c.id)).toEqual(['date', 'account']);
    expect(fitColumns(cols, 412).map((c) => c.id)).toEqual(['date', 'account', 'status']);
    expect(fitColumns(cols, 400, 44).map((c) => c.id)).toEqual(['date', 'account']);
    expect(fitColumns(cols, 100).map((c) => c.id)).toEqual(['date']);
  });
  it('at any width: secondary columns go first (the highest hideBelow first), then what still does not fit', () => {
    const alarm = [
      { id: 'date', width: 'minmax(10.5rem, 0.9fr)', primary: true }, // 168
      { id: 'account', width: 'minmax(150px, 1.2fr)' },
      { id: 'tier', width: 'minmax(80px, 0.5fr)', hideBelow: 1000 },
      { id: 'trigger', width: 'minmax(120px, 0.9fr)' },
      { id: 'type', width: 'minmax(120px, 0.9fr)', hideBelow: 760 },
      { id: 'category', width: 'minmax(130px, 1fr)', hideBelow: 860 },
      { id: 'user', width: 'minmax(130px, 1fr)', primary: true },
      { id: 'device', width: 'minmax(100px, 0.7fr)', hideBelow: 1100 },
      { id: 'controller', width: 'minmax(10rem, 1fr)' }, // 160
    ];
    const ids = (width: number, reserved = 0) => fitColumns(alarm, width, reserved).map((c) => c.id);
    expect(ids(1158)).toHaveLength(9);
    expect(ids(1100)).toEqual(['date', 'account', 'tier', 'trigger', 'type', 'category', 'user', 'controller']);
    expect(ids(1000)).toEqual(['date', 'account', 'trigger', 'type', 'category', 'user', 'controller']);
    expect(ids(900)).toEqual(['date', 'account', 'trigger', 'type', 'user', 'controller']);
    // no secondary column left: the primary ones, then the others in order while they fit
    expect(ids(700)).toEqual(['date', 'account', 'trigger', 'user']);
    expect(ids(480)).toEqual(['date', 'account', 'user']);
    expect(ids(480, 44)).toEqual(['date', 'trigger', 'user']);
    // whatever the width, what is shown fits
    for (const w of [1200, 1000, 800, 600, 500, 420]) {
      const least = fitColumns(alarm, w).reduce((sum, c) => sum + trackMinPx(c.width), 0);
      expect(least, `${w} px`).toBeLessThanOrEqual(w);
    }
  });

  it('primary columns come first, shown in their own order', () => {
    const marked = cols.map((c) => (c.id === 'account' || c.id === 'date' ? { ...c, primary: true } : c));
    expect(fitColumns(marked, 330).map((c) => c.id)).toEqual(['date', 'account']);
    const nameOnly = cols.map((c) => (c.id === 'account' ? { ...c, primary: true } : c));
    expect(fitColumns(nameOnly, 260).map((c) => c.id)).toEqual(['account', 'status']);
    expect(fitColumns(nameOnly, 120).map((c) => c.id)).toEqual(['account']);
  });
});
