// A scan into the Bulk Update page draws its own row and nothing of the rows already on the list:
// they only move down. Counted through the Type cell, which every drawn row formats once
// (deviceTypeDisplayName), on a list of 300 rows of which the table shows the ones in view.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { Provider } from 'jotai';
import { Theme } from '@radix-ui/themes';

const lookups: { serials: string[]; answer: (devices: unknown[]) => void }[] = [];
vi.mock('../../../src/app/api/http', () => ({
  http: vi.fn(
    (_path: string, opts: { body: { serials: string[] } }) =>
      new Promise((resolve) => lookups.push({ serials: opts.body.serials, answer: (devices) => resolve({ devices }) })),
  ),
}));
const typeCells = vi.hoisted(() => ({ n: 0 }));
vi.mock('../../../src/shared/codes', async (importOriginal) => {
  const codes = await importOriginal<typeof import('../../../src/shared/codes')>();
  return {
    ...codes,
    deviceTypeDisplayName: (...a: Parameters<typeof codes.deviceTypeDisplayName>) => {
      typeCells.n++;
      return codes.deviceTypeDisplayName(...a);
    },
  };
});

import { appStore } from '../../../src/app/state/store';
import { addMany, bulkAtom, EMPTY_BULK, type BulkDevice } from '../../../src/app/state/bulk';
import { BulkUpdatePage } from '../../../src/app/features/bulk-update/bulk-page';
import { scanSerial, pendingScansAtom } from '../../../src/app/features/bulk-update/bulk-service';
import { stubGridLayout } from '../ui/layout';
import { WAIT } from '../../helpers/wait';

const device = (serial: string): BulkDevice => ({
  id: `id-${serial}`,
  etag: `"${serial}"`,
  serialNumber: serial,
  type: { name: 'SG620', value: 620 },
  status: { name: 'New', value: 1 },
});
const dto = (serial: string) => ({ ...device(serial), deviceType: { name: 'SG620', value: 620 }, assetStatus: { name: 'New', value: 1 } });
const serialOf = (i: number) => `S${String(i).padStart(6, '0')}`;

let restore: () => void;
beforeEach(() => {
  localStorage.clear();
  restore = stubGridLayout(600);
  appStore.set(
    bulkAtom,
    addMany(
      EMPTY_BULK,
      Array.from({ length: 300 }, (_, i) => device(serialOf(299 - i))),
    ).state,
  );
});
afterEach(() => {
  cleanup();
  restore();
});

const grid = () => screen.getByRole('grid', { name: 'Bulk list' });
const shownSerials = () =>
  within(grid())
    .getAllByRole('row')
    .slice(1)
    .map((r) => /S\d{6}|NEW\d+/.exec(r.textContent ?? '')?.[0]);

describe('a scan on a long bulk list', () => {
  it('draws the scanned row only: the rows in view are not drawn again, when it is looked up nor when its answer fills it', async () => {
    render(
      <Provider store={appStore}>
        <Theme>
          <BulkUpdatePage />
        </Theme>
      </Provider>,
    );
    expect(shownSerials()[0]).toBe(serialOf(299));
    const inView = shownSerials().length;
    expect(inView).toBeGreaterThan(5);

    typeCells.n = 0;
    act(() => scanSerial('NEW1'));
    // the looking-up row is on top at once, the others moved down one
    expect(shownSerials().slice(0, 3)).toEqual(['NEW1', serialOf(299), serialOf(298)]);
    expect(appStore.get(pendingScansAtom)).toHaveLength(1);
    // one row drawn: the new one
    expect(typeCells.n).toBe(1);

    typeCells.n = 0;
    await vi.waitFor(() => expect(lookups).toHaveLength(1), WAIT);
    await act(async () => lookups[0]!.answer([dto('NEW1')]));
    await vi.waitFor(() => expect(within(grid()).getAllByRole('row')[1]).toHaveTextContent('New'), WAIT);
    expect(appStore.get(bulkAtom).list[0]).toBe('id-NEW1');
    expect(appStore.get(bulkAtom).list).toHaveLength(301);
    // the answer redraws its own row (filled in), none of the others
    expect(typeCells.n).toBe(1);
  });
});
