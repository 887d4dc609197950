import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

vi.mock('../../../src/app/api/http', () => ({ http: vi.fn() }));

import { http } from '../../../src/app/api/http';
import { toast } from '../../../src/app/ui/toast';
import { AssetListPage, prefetchAssetList } from '../../../src/app/features/assets/asset-list-page';
import { queryClient } from '../../../src/app/api/query-client';
import { MSG } from '../../../src/shared/messages';
import { P } from '../../../src/shared/permissions';
import { ASSET_STATUSES, LAST_CONFIG_FILTERS } from '../../../src/shared/codes';
import type { DeviceListFilter } from '../../../src/shared/schemas/devices';
import { renderPage } from '../persons/helpers';
import { stubGridLayout } from '../ui/layout';
import { DEVICE_TYPES_ANSWER, makeDevice, makeDeviceList } from './fixtures';

import { slowMachine } from '../ui/slow-machine';

slowMachine();

const httpMock = vi.mocked(http);
type Opts = { method?: string; body?: unknown };
const bodies = () => httpMock.mock.calls.filter(([p]) => p === '/api/v1/device/get-list').map(([, o]) => (o as Opts).body as DeviceListFilter);

const A = makeDevice({ id: 'dddddddd-0000-4000-8000-00000000000a', serialNumber: 'SG750-AAAAA' });
const B = makeDevice({
  id: 'dddddddd-0000-4000-8000-00000000000b',
  serialNumber: 'SG750-BBBBB',
  isUserAssigned: true,
  status: { value: 3, name: 'Allocated' },
});

let restore: () => void;
beforeEach(() => {
  restore = stubGridLayout(600);
  httpMock.mockReset();
  httpMock.mockImplementation(async (path: string, opts?: Opts) => {
    if (path === '/api/v1/device/get-types') return DEVICE_TYPES_ANSWER;
    if (path === '/api/v1/device/get-asset-statuses') return ASSET_STATUSES;
    if (path === '/api/v1/device/get-last-config-filters') return LAST_CONFIG_FILTERS;
    if (path === '/api/v1/device/get-list') {
      const body = opts!.body as DeviceListFilter;
      return body.assigned === true ? makeDeviceList([B], 1, 1_000_000) : makeDeviceList([A, B], 2, 1_000_000);
    }
    if (path === '/api/v1/import/devices') return { idList: ['x', 'y', 'z'], created: 1, alreadyPresent: ['SG750-B', 'SG750-C'] };
    throw new Error(`unexpected ${path}`);
  });
});
afterEach(() => {
  restore();
  cleanup();
  vi.restoreAllMocks();
});

const all = [P.DeviceListView, P.DeviceView, P.DeviceManage];

describe('asset list', () => {
  it("shows the 'All Assets' card with Total and Filtered, the spec's columns, and rows linking to the device tab", async () => {
    renderPage(<AssetListPage />, { permissions: all, route: 'assets' });
    await waitFor(() => expect(screen.getByTestId('assets-total')).toHaveTextContent('1,000,000'));
    expect(screen.getByTestId('assets-filtered')).toHaveTextContent('2');
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼↕]/g, '').trim());
    expect(headers).toEqual(['Type', 'Serial Number', 'IMEI', 'SIM Serial', 'Phone number', 'Order Number', 'Last Config', 'Status', 'Assigned']);
    expect(bodies()[0]).toEqual({ page: 1, pageSize: 10, orderBy: 'SerialNumber', desc: false });
    const row = (await screen.findByText('SG750-AAAAA')).closest('[role="row"]') as HTMLElement;
    expect(row).toHaveAttribute('data-linked');
    expect(within(row).getByRole('link')).toHaveAttribute('href', `/asset-management/${A.id}`);
  });

  it("a start-up asks ahead for the page its link names and the filters' lookups; the page then finds them and sends none again", async () => {
    queryClient.clear();
    prefetchAssetList('/asset-management?page=2');
    expect(bodies()).toEqual([{ page: 2, pageSize: 10, orderBy: 'SerialNumber', desc: false }]);
    queryClient.clear();
    httpMock.mockClear();
    prefetchAssetList('/asset-management');
    renderPage(<AssetListPage />, { permissions: all, route: 'assets', queryClient });
    await waitFor(() => expect(screen.getByTestId('assets-total')).toHaveTextContent('1,000,000'));
    await screen.findByText('SG750-AAAAA');
    const paths = httpMock.mock.calls.map(([p]) => p).sort();
    expect(paths).toEqual([
      '/api/v1/device/get-asset-statuses',
      '/api/v1/device/get-last-config-filters',
      '/api/v1/device/get-list',
      '/api/v1/device/get-types',
    ]);
    queryClient.clear();
  });

  it('filters: Assigned Yes is sent and the counts follow; a search shorter than 5 characters is not sent', async () => {
    const user = userEvent.setup();
    renderPage(<AssetListPage />, { permissions: all, route: 'assets' });
    await screen.findByTestId('assets-total');
    await user.selectOptions(screen.getByLabelText('Assigned'), 'yes');
    await user.click(screen.getAllByRole('button', { name: MSG.uiApply })[0]!);
    await waitFor(() => expect(screen.getByTestId('assets-filtered')).toHaveTextContent('1'));
    expect(bodies().at(-1)).toMatchObject({ assigned: true, page: 1 });

    const n = bodies().length;
    const search = screen.getByRole('searchbox', { name: 'Search devices' });
    await user.type(search, '1234{Enter}');
    expect(await screen.findByText(/Enter at least 5 characters/)).toBeInTheDocument();
    expect(bodies()).toHaveLength(n);
    await user.type(search, '5{Enter}');
    await waitFor(() => expect(bodies().at(-1)).toMatchObject({ searchValue: '12345' }));
  });

  it('import: a non-CSV file is refused with the spec message; a CSV is sent and the count reported', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const error = vi.spyOn(toast, 'error');
    const success = vi.spyOn(toast, 'success');
    const warning = vi.spyOn(toast, 'warning');
    renderPage(<AssetListPage />, { permissions: all, route: 'assets' });
    await screen.findByTestId('assets-total');
    const input = screen.getByLabelText('Import devices from a CSV file');
    await user.upload(input, new File(['x'], 'devices.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }));
    expect(error).toHaveBeenCalledWith(MSG.wrongFileType);
    expect(httpMock.mock.calls.some(([p]) => p === '/api/v1/import/devices')).toBe(false);
    await user.upload(input, new File(['SerialNumber,Type\nA,750\n'], 'devices.csv', { type: 'text/csv' }));
    // the count is what was created; the serials already present are reported apart
    // one toast (a page shows one at a time) with the spec's success sentence and the serials left as they were
    await waitFor(() => expect(warning).toHaveBeenCalledWith(`${MSG.importedN(1)} ${MSG.importAlreadyPresent(['SG750-B', 'SG750-C'])}`));
    expect(success).not.toHaveBeenCalled();
    expect(success).not.toHaveBeenCalledWith(MSG.importedN(3));
  });

  it('import: the format is explained where you import (columns, which are required, a template file)', async () => {
    const user = userEvent.setup();
    renderPage(<AssetListPage />, { permissions: all, route: 'assets' });
    await screen.findByTestId('assets-total');
    await user.click(screen.getByRole('button', { name: 'Import' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import devices' });
    const table = within(dialog).getByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]?.textContent)).toEqual([
      'Required',
      'Required',
      'Optional',
      'Optional',
      'Optional',
      'Optional',
      'Optional',
      'Optional',
    ]);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
      'SerialNumber',
      'Type',
      'IMEI',
      'IMSI',
      'SimSerial',
      'PhoneNumber',
      'Supplier',
      'OrderNumber',
    ]);
    expect(within(dialog).getByRole('button', { name: 'Download template (.csv)' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Choose CSV file' })).toBeInTheDocument();
  });

  it('without the manage permission there is no import button; without view, rows are not links', async () => {
    renderPage(<AssetListPage />, { permissions: [P.DeviceListView], route: 'assets' });
    await screen.findByTestId('assets-total');
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
    const row = (await screen.findByText('SG750-AAAAA')).closest('[role="row"]') as HTMLElement;
    expect(row).not.toHaveAttribute('data-linked');
    expect(within(row).queryByRole('link')).toBeNull();
  });
});
