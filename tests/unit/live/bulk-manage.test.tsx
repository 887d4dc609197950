// The three Configure & Test Devices tabs on the bulk list's selection, with a fake hub
// (spec document 2 §2 bulk management tabs, §4 live Device Testing and configuration submit, §5).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

vi.mock('../../../src/app/api/http', () => ({ http: vi.fn() }));
vi.mock('../../../src/app/ui/confirm-dialog', () => ({ confirm: vi.fn(async () => true) }));
vi.mock('../../../src/app/api/live', async (importOriginal) => (await import('../../helpers/live-hub')).deviceHubModule(importOriginal));

import { http } from '../../../src/app/api/http';
import { deviceHub as hub, resetDeviceHub } from '../../helpers/live-hub';
import { confirm } from '../../../src/app/ui/confirm-dialog';
import { toast } from '../../../src/app/ui/toast';
import { BULK_KEY, type BulkDevice, type BulkState } from '../../../src/app/state/bulk';
import { ChangeConfigPage } from '../../../src/app/features/bulk-manage/change-config-page';
import { DeviceTestingPage, NO_COMMUNICATION } from '../../../src/app/features/bulk-manage/device-testing-page';
import { CurrentConfigPage, NO_CONFIGURATION, PENDING } from '../../../src/app/features/bulk-manage/current-config-page';
import { CHANGE_TEXTS } from '../../../src/app/features/bulk-manage/change-config-form';
import { getHref } from '../../../src/app/paths';
import { MSG, PAGE_TITLES } from '../../../src/shared/messages';
import { P } from '../../../src/shared/permissions';
import { DEVICE_TYPES_ANSWER } from '../assets/fixtures';
import { CALL_BUTTON_TYPES, hubPayload, type ConfigurationRow, type LastMessageDto } from '../../../src/shared/schemas/live';
import { renderPage } from '../persons/helpers';
import { makeLastMessage, makeMessage } from './fixtures';
import { slowMachine } from '../ui/slow-machine';
import { polyfillDom } from '../app-core/helpers';
import { stubGridLayout } from '../ui/layout';

slowMachine();
polyfillDom();

const httpMock = vi.mocked(http);
type Opts = { method?: string; body?: unknown; query?: Record<string, unknown> };

const dev = (n: number, type = 640, name = 'SG640'): BulkDevice => ({
  id: `dddddddd-0000-4000-8000-00000000000${n}`,
  etag: `e${n}`,
  serialNumber: `${name}-0000${n}`,
  imei: `35811402809435${n}`,
  type: { value: type, name },
  status: { value: 1, name: 'New' },
});
function selectOnBulkList(devices: BulkDevice[]) {
  const state: BulkState = { list: devices.map((d) => d.id), selected: devices.map((d) => d.id), devices: Object.fromEntries(devices.map((d) => [d.id, d])) };
  localStorage.setItem(BULK_KEY, JSON.stringify(state));
}
let firmware: (string | null)[];
let lastMessages: LastMessageDto[];
let configurations: ConfigurationRow[];

let restoreLayout: () => void;
beforeEach(() => {
  restoreLayout = stubGridLayout(600);
  localStorage.clear();
  resetDeviceHub();
  firmware = ['4.3.1', '4.3.1'];
  lastMessages = [];
  configurations = [];
  httpMock.mockReset();
  httpMock.mockImplementation(async (path: string, opts?: Opts) => {
    if (path === '/api/v1/device/get-types') return DEVICE_TYPES_ANSWER;
    if (path === '/ps-admin/devices/get-configuration-types') return { EnumValues: CALL_BUTTON_TYPES };
    if (path === '/ps-admin/devices/get-firmware-versions') {
      const serials = (opts?.body as { serials: string[] }).serials;
      return {
        Items: serials.map((s, i) => ({ Serial: s, Type: { Value: Number(s.slice(2, 5)), Name: s.split('-')[0] }, FirmwareVersion: firmware[i] ?? null })),
      };
    }
    if (path === '/api/v1/device/desired-configuration' && opts?.method === 'PUT') return { Content: { Message: MSG.configQueued }, Queued: 2 };
    if (path === '/devices/get-last-messages') return { Items: lastMessages, TotalCount: lastMessages.length };
    if (path === '/ps-admin/devices/get-configurations') return { Items: configurations, TotalCount: configurations.length };
    if (path === '/ps-admin/devices/download-configurations-csv' || path === '/devices/download-last-messages-csv') return new Blob(['a,b\n']);
    throw new Error(`unexpected ${opts?.method ?? 'GET'} ${path}`);
  });
  vi.mocked(confirm).mockReset().mockResolvedValue(true);
});
afterEach(() => {
  cleanup();
  restoreLayout();
  vi.restoreAllMocks();
});

const perms = [P.DeviceListView, P.DeviceView, P.DeviceManage];
const puts = () => httpMock.mock.calls.filter(([, o]) => (o as Opts | undefined)?.method === 'PUT');

describe('Change Configuration', () => {
  it('asks for at least one change, refuses an invalid form, then queues only the ticked group and goes to Current Configuration', async () => {
    selectOnBulkList([dev(1), dev(2)]);
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    const { tab } = renderPage(<ChangeConfigPage />, { permissions: perms, route: 'bulkChangeConfig' });
    expect(await screen.findByRole('heading', { level: 1, name: PAGE_TITLES.bulkChangeConfig })).toBeInTheDocument();
    // (Radix repeats each tab label in a visually hidden span, which jsdom counts into the name.)
    const strip = screen.getByRole('navigation', { name: 'Configure & Test Devices' });
    expect(within(strip).getByRole('link', { name: /^Change Configuration/ })).toHaveAttribute('aria-current', 'page');
    expect(within(strip).getByRole('link', { name: /^Device Testing/ })).not.toHaveAttribute('aria-current');
    const send = await screen.findByRole('button', { name: 'Send configuration' });

    await user.click(send);
    expect(await screen.findByTestId('form-error')).toHaveTextContent(MSG.atLeastOneConfig);

    await user.click(screen.getByRole('checkbox', { name: 'Change tracking' }));
    const interval = screen.getByLabelText(/Tracking interval/);
    expect(interval).toHaveValue(15); // spec default
    await user.clear(interval);
    await user.type(interval, '3');
    await user.click(send);
    expect(await screen.findByTestId('form-error')).toHaveTextContent(MSG.invalidConfiguration);
    expect(screen.getByText(MSG.atLeast5)).toBeInTheDocument();
    expect(puts()).toHaveLength(0);

    await user.clear(interval);
    await user.type(interval, '30');
    await user.click(send);
    await waitFor(() => expect(success).toHaveBeenCalledWith(MSG.configQueued));
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(puts()).toHaveLength(1);
    expect(puts()[0]![1]).toMatchObject({
      body: { serials: ['SG640-00001', 'SG640-00002'], isTrackingEnabled: true, trackingIntervalMinutes: 30 },
    });
    expect(Object.keys((puts()[0]![1] as { body: object }).body).sort()).toEqual(['isTrackingEnabled', 'serials', 'trackingIntervalMinutes']);
    expect(tab.navigate).toHaveBeenCalledWith(getHref('bulkCurrentConfig'));
  });

  it('fall detection offers the firmware version’s presets and Custom (0–254); a custom call button needs its number', async () => {
    selectOnBulkList([dev(1), dev(2)]);
    const user = userEvent.setup();
    renderPage(<ChangeConfigPage />, { permissions: perms, route: 'bulkChangeConfig' });
    await user.click(await screen.findByRole('checkbox', { name: 'Change fall detection' }));
    const setting = screen.getByLabelText(/Sensitivity level/);
    const options = within(setting)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual([
      'Select a setting',
      'Low (ID140) (025/170/200)',
      'Default (SG621/640/750) (030/150/200)',
      'MicroGuard Only (MG370) (040/025/200)',
      'Retired Only (SG620/740) (040/060/150)',
      'Custom',
    ]);
    await user.selectOptions(setting, 'Custom');
    await user.type(screen.getByLabelText(/^Sensitivity/, { selector: 'input' }), '300');
    await user.click(screen.getByRole('checkbox', { name: 'Change call 2 button' }));
    await user.selectOptions(screen.getByLabelText(/Call 2 type/), 'Custom number');
    await user.click(screen.getByRole('button', { name: 'Send configuration' }));
    expect(await screen.findByTestId('form-error')).toHaveTextContent(MSG.invalidConfiguration);
    expect(screen.getAllByText(CHANGE_TEXTS.fallRange).length).toBeGreaterThan(0);
    expect(screen.getByText(CHANGE_TEXTS.callNumberRequired)).toBeInTheDocument();
    expect(puts()).toHaveLength(0);
  });

  it('the call 1 number error goes once the number is typed; unticking the box clears its errors and the form error', async () => {
    selectOnBulkList([dev(1), dev(2)]);
    const user = userEvent.setup();
    renderPage(<ChangeConfigPage />, { permissions: perms, route: 'bulkChangeConfig' });
    const box = await screen.findByRole('checkbox', { name: 'Change call 1 button' });
    await user.click(box);
    await user.selectOptions(screen.getByLabelText(/Call 1 type/), 'Custom number');
    await user.click(screen.getByRole('button', { name: 'Send configuration' }));
    expect(await screen.findByTestId('form-error')).toHaveTextContent(MSG.invalidConfiguration);
    expect(screen.getByText(CHANGE_TEXTS.callNumberRequired)).toBeInTheDocument();
    await user.type(screen.getByLabelText(/Call 1 number/), '+447700900001');
    await waitFor(() => expect(screen.queryByText(CHANGE_TEXTS.callNumberRequired)).toBeNull());
    expect(screen.queryByTestId('form-error')).toBeNull();

    await user.clear(screen.getByLabelText(/Call 1 number/));
    await user.click(screen.getByRole('button', { name: 'Send configuration' }));
    expect(await screen.findByText(CHANGE_TEXTS.callNumberRequired)).toBeInTheDocument();
    await user.click(box);
    await waitFor(() => expect(screen.queryByText(CHANGE_TEXTS.callNumberRequired)).toBeNull());
    expect(screen.queryByTestId('form-error')).toBeNull();
    expect(puts()).toHaveLength(0);
  });

  it('devices on different firmware cannot change fall detection; two device types cannot be sent at all', async () => {
    firmware = ['4.3.1', '5.1.4'];
    selectOnBulkList([dev(1), dev(2)]);
    renderPage(<ChangeConfigPage />, { permissions: perms, route: 'bulkChangeConfig' });
    expect(await screen.findByRole('checkbox', { name: 'Change fall detection' })).toBeDisabled();
    expect(screen.getByText(CHANGE_TEXTS.fallNeedsOneFirmware)).toBeInTheDocument();
    cleanup();

    selectOnBulkList([dev(1), dev(2, 750, 'SG750')]);
    renderPage(<ChangeConfigPage />, { permissions: perms, route: 'bulkChangeConfig' });
    expect(await screen.findByTestId('type-rule')).toHaveTextContent(MSG.oneDeviceType);
    expect(screen.getByRole('button', { name: 'Send configuration' })).toBeDisabled();
  });

  it('custom commands: the three messages, then the command is listed and sent', async () => {
    selectOnBulkList([dev(1)]);
    firmware = ['4.3.1'];
    const user = userEvent.setup();
    renderPage(<ChangeConfigPage />, { permissions: perms, route: 'bulkChangeConfig' });
    const add = await screen.findByRole('button', { name: 'Add command' });
    await user.click(add);
    expect(screen.getByText(MSG.enterCustomCommand)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Command'), 'STATUS#');
    await user.click(add);
    expect(screen.getByText(MSG.selectDeliveryMethod)).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Delivery method'), 'TCP');
    await user.click(add);
    expect(within(screen.getByRole('list', { name: 'Commands to send' })).getByText('STATUS#')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Command'), 'STATUS#');
    await user.click(add);
    expect(screen.getByText(MSG.commandExists)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send configuration' }));
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect((puts()[0]![1] as { body: unknown }).body).toEqual({
      serials: ['SG640-00001'],
      rawCommands: [{ rawCommand: 'STATUS#', communicationProtocol: 'TCP' }],
    });
  });

  it('with nothing selected on the bulk list the tab says so', async () => {
    renderPage(<ChangeConfigPage />, { permissions: perms, route: 'bulkChangeConfig' });
    expect(await screen.findByText(MSG.selectOneDevice)).toBeInTheDocument();
  });
});

describe('Device Testing', () => {
  it("lists the last message per device, 'No communication received from this device', and rows update live", async () => {
    const [a, b] = [dev(1), dev(2)];
    selectOnBulkList([a, b]);
    lastMessages = [
      makeLastMessage({ DeviceId: a.id, SerialNumber: a.serialNumber, DeviceIdentity: a.imei!, PartitionKey: a.imei!, Message: 'Heartbeat', Battery: 90 }),
      makeLastMessage({
        DeviceId: b.id,
        SerialNumber: b.serialNumber,
        DeviceIdentity: b.imei!,
        PartitionKey: b.imei!,
        IsEmpty: true,
        Date: null,
        Message: null,
        Battery: null,
        Signal: null,
        MessageId: null,
      }),
    ];
    renderPage(<DeviceTestingPage />, { permissions: perms, route: 'bulkDeviceTesting' });
    const rowOf = async (serial: string) => (await screen.findByText(serial)).closest('[role="row"]') as HTMLElement;
    expect(await rowOf(b.serialNumber)).toHaveTextContent(NO_COMMUNICATION);
    expect(hub.identities).toEqual([a.imei, b.imei]);
    expect(httpMock).toHaveBeenCalledWith(
      '/devices/get-last-messages',
      expect.objectContaining({ body: expect.objectContaining({ deviceIdentities: [a.imei, b.imei] }) }),
    );

    // The stock person presses SOS on device b: its row shows it.
    act(() =>
      hub.handlers.MessageStream?.(
        hubPayload.MessageStream(
          makeMessage({
            MessageId: 'sos-1',
            DeviceIdentity: b.imei!,
            Serial: b.serialNumber,
            Message: 'SOS alarm',
            Battery: 64,
            Date: new Date().toISOString(),
          }),
        ),
      ),
    );
    await waitFor(async () => expect(await rowOf(b.serialNumber)).toHaveTextContent('SOS alarm'));
    expect(await rowOf(b.serialNumber)).toHaveTextContent('64%');
    expect(await rowOf(b.serialNumber)).not.toHaveTextContent(NO_COMMUNICATION);
    expect(await rowOf(a.serialNumber)).toHaveTextContent('Heartbeat');
    // DeviceConnected for a
    act(() =>
      hub.handlers.DeviceConnected?.(
        hubPayload.DeviceConnected({
          DeviceId: a.id,
          DeviceIdentity: a.imei!,
          SerialNumber: a.serialNumber,
          IsConnected: true,
          Date: new Date().toISOString(),
        }),
      ),
    );
    await waitFor(async () =>
      expect(
        within(await rowOf(a.serialNumber))
          .getAllByRole('gridcell')
          .at(-1),
      ).toHaveTextContent('Yes'),
    );
    expect(screen.getByTestId('live-state')).toHaveTextContent('Live');
    // A malformed live message changes nothing and says 'Failed to update list.'
    const error = vi.spyOn(toast, 'error');
    act(() => hub.handlers.MessageStream?.({ DeviceIdentity: a.imei, Message: 42 }));
    expect(error).toHaveBeenCalledWith(MSG.badLiveMessage, expect.anything());
    expect(await rowOf(a.serialNumber)).toHaveTextContent('Heartbeat');
    // Each row opens its device tab.
    expect(within(await rowOf(a.serialNumber)).getByRole('link')).toHaveAttribute('href', getHref('device', { deviceId: a.id }));
  });
});

describe('Current Configuration', () => {
  it("shows 'On - N minutes', 'On - settings', 'No configuration for this device'; 'Pending' while a change waits, and the applied change live", async () => {
    const [a, b] = [dev(1), dev(2)];
    selectOnBulkList([a, b]);
    const row = (serial: string, over: Partial<ConfigurationRow> = {}): ConfigurationRow => ({
      Id: serial,
      Serial: serial,
      DeviceIdentity: serial,
      Type: { Value: 640, Name: 'SG640' },
      LastUpdated: '2026-11-20T08:00:00.000Z',
      IsTracking: true,
      TrackingSeconds: 600,
      IsFallDetection: true,
      FallDetectionSettings: '030-150-200',
      FirmwareVersion: '4.3.1',
      Call1Type: { Value: 1, Name: 'Alarm Receiving Centre' },
      Call2Type: { Value: 3, Name: 'Disabled' },
      PendingChanges: 0,
      ...over,
    });
    configurations = [
      row(a.serialNumber),
      row(b.serialNumber, {
        LastUpdated: null,
        IsTracking: null,
        TrackingSeconds: null,
        IsFallDetection: null,
        FallDetectionSettings: null,
        Call1Type: null,
        Call2Type: null,
      }),
    ];
    renderPage(<CurrentConfigPage />, { permissions: perms, route: 'bulkCurrentConfig' });
    const rowA = (await screen.findByText(a.serialNumber)).closest('[role="row"]') as HTMLElement;
    expect(rowA).toHaveTextContent('On - 10 minutes');
    expect(rowA).toHaveTextContent('On - Default (SG621/640/750)');
    expect(rowA).toHaveTextContent('Alarm Receiving Centre');
    const rowB = screen.getByText(b.serialNumber).closest('[role="row"]') as HTMLElement;
    expect(rowB).toHaveTextContent(NO_CONFIGURATION);

    // A change is queued for a: 'Pending'; the device applies it: the list is fetched again.
    configurations = [row(a.serialNumber, { PendingChanges: 1 }), configurations[1]!];
    act(() =>
      hub.handlers.DeviceConfigurationUpdated?.(
        hubPayload.DeviceConfigurationUpdated({ Id: a.id, DeviceIdentity: a.imei!, SerialNumber: a.serialNumber, LastUpdated: null }),
      ),
    );
    await waitFor(() => expect(screen.getByText(a.serialNumber).closest('[role="row"]')).toHaveTextContent(PENDING));
    configurations = [row(a.serialNumber, { TrackingSeconds: 2700, LastUpdated: '2026-11-22T09:00:00.000Z' }), configurations[1]!];
    act(() =>
      hub.handlers.DeviceConfigurationUpdated?.(
        hubPayload.DeviceConfigurationUpdated({ Id: a.id, DeviceIdentity: a.imei!, SerialNumber: a.serialNumber, LastUpdated: '2026-11-22T09:00:00.000Z' }),
      ),
    );
    await waitFor(() => expect(screen.getByText(a.serialNumber).closest('[role="row"]')).toHaveTextContent('On - 45 minutes'));
    expect(screen.getByText(a.serialNumber).closest('[role="row"]')).not.toHaveTextContent(PENDING);
    expect(hub.identities).toEqual([a.imei, b.imei]);
    expect(httpMock).toHaveBeenCalledWith(
      '/ps-admin/devices/get-configurations',
      expect.objectContaining({ body: expect.objectContaining({ serialNumbers: [a.serialNumber, b.serialNumber], page: 1, pageSize: 10 }) }),
    );

    // Download CSV: the list's filters without paging, saved as CurrentConfiguration_<date>.csv
    const saved: string[] = [];
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatch(/^CurrentConfiguration_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.csv$/);
    const [, opts] = httpMock.mock.calls.find(([path]) => path === '/ps-admin/devices/download-configurations-csv')!;
    expect((opts as Opts).body).toMatchObject({ serialNumbers: [a.serialNumber, b.serialNumber] });
    expect((opts as Opts).body).not.toHaveProperty('page');
  });
});
