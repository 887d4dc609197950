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
  it('primary columns come first, shown in their own order', () => {
    const marked = cols.map((c) => (c.id === 'account' || c.id === 'date' ? { ...c, primary: true } : c));
    expect(fitColumns(marked, 330).map((c) => c.id)).toEqual(['date', 'account']);
    const nameOnly = cols.map((c) => (c.id === 'account' ? { ...c, primary: true } : c));
    expect(fitColumns(nameOnly, 260).map((c) => c.id)).toEqual(['account', 'status']);
    expect(fitColumns(nameOnly, 120).map((c) => c.id)).toEqual(['account']);
  });
});
