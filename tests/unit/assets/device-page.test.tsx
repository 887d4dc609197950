import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

vi.mock('../../../src/app/api/http', () => ({ http: vi.fn() }));
vi.mock('../../../src/app/ui/confirm-dialog', () => ({ confirm: vi.fn(async () => true) }));

import { http } from '../../../src/app/api/http';
import { confirm } from '../../../src/app/ui/confirm-dialog';
import { toast } from '../../../src/app/ui/toast';
import { DevicePage } from '../../../src/app/features/assets/device-page';
import { DEVICE_TEXTS } from '../../../src/app/features/assets/device-form';
import { MSG } from '../../../src/shared/messages';
import { P } from '../../../src/shared/permissions';
import { DEVICE_TEXT, SIM_EXEMPT_TYPES, type DeviceDto } from '../../../src/shared/schemas/devices';
import { renderPage, httpError } from '../persons/helpers';
import { DEVICE_ID, SIM_TYPES_ANSWER, makeDevice } from './fixtures';
import { makeConfiguration } from '../live/fixtures';

import { slowMachine } from '../ui/slow-machine';

slowMachine();

const httpMock = vi.mocked(http);
type Opts = { method?: string; body?: unknown; query?: Record<string, unknown> };
let device: DeviceDto;
let onPut: (body: { etag: string; generalDetails: Record<string, unknown> }) => unknown;

beforeEach(() => {
  device = makeDevice();
  onPut = (body) => ({ ...device, ...body.generalDetails, etag: 'etag-2' });
  httpMock.mockReset();
  httpMock.mockImplementation(async (path: string, opts?: Opts) => {
    if (path === '/api/v1/device/get-sim-types') return SIM_TYPES_ANSWER;
    if (path === '/api/v1/device/get-by-id') return device;
    // the live column (tests/unit/live/device-live.test.tsx covers it)
    if (path === '/ps-admin/devices/get-configuration-by-id') return makeConfiguration({ FirmwareVersion: device.firmwareVersion });
    if (path === '/devices/get-message-stream') return { Items: [], ContinuationToken: null };
    if (path === `/api/v1/device/${DEVICE_ID}/general-details` && opts?.method === 'PUT') return onPut(opts.body as never);
    throw new Error(`unexpected ${path}`);
  });
  vi.mocked(confirm).mockReset().mockResolvedValue(true);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const manage = [P.DeviceListView, P.DeviceView, P.DeviceManage];
const open = (permissions = manage, deviceId = DEVICE_ID) => renderPage(<DevicePage />, { permissions, route: 'device', params: { deviceId } });
const puts = () => httpMock.mock.calls.filter(([, o]) => (o as Opts | undefined)?.method === 'PUT');

describe('device details', () => {
  it('shows the header, status, editable and read-only fields, the stored SIM type, and read-only configuration', async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: device.serialNumber })).toBeInTheDocument();
    expect(screen.getByTestId('device-status')).toHaveTextContent('New');
    expect(screen.getByLabelText(/Supplier/)).toHaveValue(device.supplier);
    expect(screen.getByLabelText(/SIM type/)).toHaveValue('1');
    for (const label of ['Order Number', 'Date received', 'Device type', 'Serial Number', 'IMEI', 'Sim Status', 'Last update', 'Added to system'])
      expect(screen.getByLabelText(label)).toHaveAttribute('readonly');
    expect(screen.getByLabelText('IMEI')).toHaveValue(device.imei);
    await waitFor(() => expect(screen.getByRole('region', { name: 'Configuration' })).toHaveTextContent('1.4.2'));
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('save asks first, sends only the changed field with the etag, and says so', async () => {
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    const { tab } = open();
    const supplier = await screen.findByLabelText(/Supplier/);
    await user.clear(supplier);
    await user.type(supplier, 'Acme Ltd');
    expect(tab.setDirty).toHaveBeenLastCalledWith(true);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(confirm).toHaveBeenCalledWith(expect.objectContaining({ message: DEVICE_TEXTS.saveQuestion }));
    await waitFor(() => expect(success).toHaveBeenCalledWith(MSG.deviceUpdated));
    expect(puts()).toHaveLength(1);
    expect(puts()[0]![1]).toMatchObject({ body: { etag: 'etag-1', generalDetails: { supplier: 'Acme Ltd' } } });
    expect(Object.keys((puts()[0]![1] as { body: { generalDetails: object } }).body.generalDetails)).toEqual(['supplier']);
    // clean again: Save is disabled, and keeps the focus it was pressed with (so it says so with aria-disabled)
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toHaveAttribute('aria-disabled', 'true'));
    expect(tab.setDirty).toHaveBeenLastCalledWith(false);
  });

  it('declining the save question sends nothing', async () => {
    vi.mocked(confirm).mockResolvedValue(false);
    const user = userEvent.setup();
    open();
    await user.type(await screen.findByLabelText(/IMSI/), '9');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(confirm).toHaveBeenCalled());
    expect(puts()).toHaveLength(0);
  });

  it('a failed save says "Failed to update device."', async () => {
    const error = vi.spyOn(toast, 'error');
    onPut = () => {
      throw httpError(500, 'boom');
    };
    const user = userEvent.setup();
    open();
    await user.type(await screen.findByLabelText(/IMSI/), '9');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith(MSG.deviceUpdateFailed));
  });

  it('required fields: empty supplier shows its message and blocks Save; exempt types need no SIM fields', async () => {
    const user = userEvent.setup();
    open();
    const supplier = await screen.findByLabelText(/Supplier/);
    await user.clear(supplier);
    expect(await screen.findByText(DEVICE_TEXT.supplierRequired)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    cleanup();

    device = makeDevice({ type: { value: SIM_EXEMPT_TYPES[0]!, name: 'Exempt' }, simTypeId: null, simSerial: null, phoneNumber: null });
    open();
    await user.type(await screen.findByLabelText(/Supplier/), ' 2');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled());
  });

  it('Cancel asks before discarding and then restores the stored values', async () => {
    const user = userEvent.setup();
    open();
    const supplier = await screen.findByLabelText(/Supplier/);
    await user.type(supplier, ' X');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(confirm).toHaveBeenCalledWith(expect.objectContaining({ message: DEVICE_TEXTS.discardQuestion }));
    await waitFor(() => expect(supplier).toHaveValue(device.supplier));
  });

  it('without the manage permission the form is read-only; a bad id is a bad URL; an unknown device says so', async () => {
    open([P.DeviceListView, P.DeviceView]);
    expect(await screen.findByLabelText(/Supplier/)).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    cleanup();
    open(manage, 'not-a-guid');
    expect(await screen.findByText(MSG.badUrl)).toBeInTheDocument();
    cleanup();
    httpMock.mockImplementation(async (path: string) => {
      if (path === '/api/v1/device/get-sim-types') return SIM_TYPES_ANSWER;
      throw httpError(404, MSG.deviceUnknown, 'stock_device_not_found');
    });
    open();
    expect(await screen.findByText(MSG.deviceUnknown)).toBeInTheDocument();
  });
});
