// The device tab's live column with a fake hub (spec document 2 §2 Configuration and Message
// Stream, §4 device detail live updates, §8): what the user sees, and what is sent.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

vi.mock('../../../src/app/api/http', () => ({ http: vi.fn() }));
// The hub: the test plays the server, handing events to whatever the page subscribed.
vi.mock('../../../src/app/api/live', async (importOriginal) => (await import('../../helpers/live-hub')).deviceHubModule(importOriginal));

import { http } from '../../../src/app/api/http';
import { deviceHub as hub, resetDeviceHub } from '../../helpers/live-hub';
import { toast } from '../../../src/app/ui/toast';
import { DevicePage } from '../../../src/app/features/assets/device-page';
import { deviceActionsOf } from '../../../src/app/features/assets/device-events';
import { MSG } from '../../../src/shared/messages';
import { P } from '../../../src/shared/permissions';
import { hubPayload, type DeviceConfigurationDto, type MessageStream } from '../../../src/shared/schemas/live';
import { renderPage } from '../persons/helpers';
import { DEVICE_ID, SIM_TYPES_ANSWER, makeDevice } from '../assets/fixtures';
import { IMEI, SERIAL, makeConfiguration, makeMessage } from './fixtures';
import { slowMachine } from '../ui/slow-machine';

slowMachine();

const httpMock = vi.mocked(http);
type Opts = { method?: string; body?: unknown; query?: Record<string, unknown> };
let config: DeviceConfigurationDto;
let stream: (token: string | undefined) => MessageStream;

beforeEach(() => {
  resetDeviceHub();
  config = makeConfiguration();
  stream = () => ({ Items: [makeMessage({ MessageId: 'old-1', Message: 'Heartbeat', Date: '2026-11-22T08:00:00.000Z' })], ContinuationToken: null });
  httpMock.mockReset();
  httpMock.mockImplementation(async (path: string, opts?: Opts) => {
    if (path === '/api/v1/device/get-sim-types') return SIM_TYPES_ANSWER;
    if (path === '/api/v1/device/get-by-id') return makeDevice();
    if (path === '/ps-admin/devices/get-configuration-by-id') return config;
    if (path === '/devices/get-message-stream') return stream(opts?.query?.continuationToken as string | undefined);
    if (path === '/device-configuration' && opts?.method === 'PUT') {
      config = { ...config, RefreshRequestedAt: '2026-11-22T09:10:00.000Z' };
      return { Content: { Message: MSG.configUpdateRequested } };
    }
    if (path === '/devices/get-detailed-message')
      return {
        ...makeMessage({ MessageId: 'old-1' }),
        MessageProperties: JSON.stringify(JSON.stringify({ Sos: false, Temperature: 21.5, Note: '', Nested: { x: 1 } })),
        RawMessage: '+RESP:GTHBD,C30203,358114028094354,,20261122080000,0001$',
      };
    throw new Error(`unexpected ${opts?.method ?? 'GET'} ${path}`);
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const open = (permissions = [P.DeviceListView, P.DeviceView, P.DeviceManage]) =>
  renderPage(<DevicePage />, { permissions, route: 'device', params: { deviceId: DEVICE_ID } });
const streamList = () => screen.getByRole('list', { name: 'Device messages' });
const emit = (event: string, payload: unknown) => act(() => hub.handlers[event]?.(payload));

describe('device tab: configuration and live message stream', () => {
  it('shows every configuration field, watches the IMEI, and a live message arrives on top and marks the device Connected', async () => {
    open();
    const section = await screen.findByRole('region', { name: 'Configuration' });
    await waitFor(() => expect(within(section).getByTestId('config-tracking')).toHaveTextContent('On - 15 minutes'));
    expect(within(section).getByTestId('config-fall')).toHaveTextContent('On - Default (SG621/640/750)');
    expect(within(section).getByTestId('config-firmware')).toHaveTextContent('4.3.1');
    for (const label of ['Last updated', 'SOS button', 'Call 1 number', 'Call 2 number', 'Primary end point', 'Secondary end point', 'SMS backup'])
      expect(section).toHaveTextContent(label);
    expect(section).toHaveTextContent('Alarm Receiving Centre · +443301234567');
    expect(screen.getByTestId('device-connection')).toHaveTextContent('Not connected');
    expect(hub.identities).toEqual([IMEI]);

    await waitFor(() => expect(within(streamList()).getAllByRole('listitem')).toHaveLength(1));
    emit('MessageStream', hubPayload.MessageStream(makeMessage({ MessageId: 'live-1', Message: 'SOS alarm', Date: '2026-11-22T09:30:00.000Z', Battery: 55 })));
    const items = within(streamList()).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('SOS alarm');
    expect(items[0]).toHaveTextContent('Battery 55%');
    expect(items[1]).toHaveTextContent('Heartbeat');
    expect(screen.getByTestId('stream-announce')).toHaveTextContent('New message: SOS alarm');
    expect(screen.getByTestId('device-connection')).toHaveTextContent('Connected');
    // The same message again (re-sent after a reconnect) is shown once.
    emit('MessageStream', hubPayload.MessageStream(makeMessage({ MessageId: 'live-1', Message: 'SOS alarm', Date: '2026-11-22T09:30:00.000Z' })));
    expect(within(streamList()).getAllByRole('listitem')).toHaveLength(2);
    // DeviceConnected says when it went away.
    emit(
      'DeviceConnected',
      hubPayload.DeviceConnected({ DeviceId: DEVICE_ID, DeviceIdentity: IMEI, SerialNumber: SERIAL, IsConnected: false, Date: '2026-11-22T09:31:00.000Z' }),
    );
    expect(screen.getByTestId('device-connection')).toHaveTextContent('Not connected');
  });

  it("empty states: 'Configuration not known' and 'No messages received from device.'", async () => {
    config = makeConfiguration({ LastUpdated: null });
    stream = () => ({ Items: [], ContinuationToken: null });
    open();
    expect(await screen.findByTestId('config-unknown')).toHaveTextContent(MSG.configurationNotKnown);
    expect(await screen.findByTestId('stream-empty')).toHaveTextContent(MSG.noMessagesFromDevice);
    expect(screen.queryByTestId('config-tracking')).toBeNull();
  });

  it("'Load more' shows at 10 messages with a continuation token and fetches the next page with it", async () => {
    const page = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) =>
        makeMessage({
          MessageId: `m${from + i}`,
          Message: `Message ${from + i}`,
          Date: new Date(Date.UTC(2026, 10, 22, 9, 0) - (from + i) * 60_000).toISOString(),
        }),
      );
    stream = (token) => (token === 'page-2' ? { Items: page(10, 3), ContinuationToken: null } : { Items: page(0, 10), ContinuationToken: 'page-2' });
    const user = userEvent.setup();
    open();
    const more = await screen.findByRole('button', { name: 'Load more' });
    expect(within(streamList()).getAllByRole('listitem')).toHaveLength(10);
    await user.click(more);
    await waitFor(() => expect(within(streamList()).getAllByRole('listitem')).toHaveLength(13));
    expect(httpMock).toHaveBeenCalledWith(
      '/devices/get-message-stream',
      expect.objectContaining({ query: { deviceIdentity: IMEI, continuationToken: 'page-2' } }),
    );
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it("a failed 'Load more' says 'Failed to load more messages.' and keeps what was loaded", async () => {
    const page = Array.from({ length: 10 }, (_, i) =>
      makeMessage({ MessageId: `m${i}`, Date: new Date(Date.UTC(2026, 10, 22, 9, 0) - i * 60_000).toISOString() }),
    );
    stream = (token) => {
      if (token) throw Object.assign(new Error('boom'), { status: 500, data: { Content: { Message: 'boom', Code: 'internal_error' } } });
      return { Items: page, ContinuationToken: 'page-2' };
    };
    const user = userEvent.setup();
    open();
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByText(MSG.streamFailed)).toBeInTheDocument();
    expect(within(streamList()).getAllByRole('listitem')).toHaveLength(10);
  });

  it("Refresh Configuration asks the device, says so, and shows 'Pending' until the device answers; the configuration event refetches it", async () => {
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    const { tab } = open();
    const section = await screen.findByRole('region', { name: 'Configuration' });
    await waitFor(() => expect(within(section).getByTestId('config-last-updated')).not.toHaveTextContent('Pending'));
    await user.click(within(section).getByRole('button', { name: 'Refresh Configuration' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith(MSG.configUpdateRequested));
    expect(httpMock).toHaveBeenCalledWith('/device-configuration', expect.objectContaining({ method: 'PUT', body: { serial: SERIAL } }));
    await waitFor(() => expect(within(section).getByTestId('config-last-updated')).toHaveTextContent('Pending'));

    // The device reports: the server says the configuration changed; the tab fetches it again.
    config = makeConfiguration({ RefreshRequestedAt: null, LastUpdated: '2026-11-22T09:20:00.000Z', TrackingSeconds: 1800 });
    emit(
      'DeviceConfigurationUpdated',
      hubPayload.DeviceConfigurationUpdated({ Id: DEVICE_ID, DeviceIdentity: IMEI, SerialNumber: SERIAL, LastUpdated: config.LastUpdated }),
    );
    await waitFor(() => expect(within(section).getByTestId('config-tracking')).toHaveTextContent('On - 30 minutes'));
    expect(within(section).getByTestId('config-last-updated')).not.toHaveTextContent('Pending');

    // The 'd r' / 'd f' commands reach this tab's actions.
    expect(deviceActionsOf(tab.tabId)).not.toBeNull();
  });

  it('the detailed message dialog shows the scalar properties, dashes for empty values, and the raw message last', async () => {
    const user = userEvent.setup();
    open();
    await waitFor(() => expect(within(streamList()).getAllByRole('listitem')).toHaveLength(1));
    await user.click(within(streamList()).getByRole('button'));
    const dialog = await screen.findByRole('dialog', { name: 'Device message' });
    await waitFor(() => expect(dialog).toHaveTextContent('Temperature21.5'));
    expect(dialog).toHaveTextContent('SosNo');
    expect(dialog).toHaveTextContent('Note-');
    expect(dialog).not.toHaveTextContent('Nested');
    expect(within(dialog).getByLabelText('Raw message')).toHaveTextContent('+RESP:GTHBD');
    expect(httpMock).toHaveBeenCalledWith(
      '/devices/get-detailed-message',
      expect.objectContaining({ query: expect.objectContaining({ identity: IMEI, messageId: 'old-1' }) }),
    );
  });

  it("when the hub cannot be reached the tab says 'Failed to establish connection for live updates.'; without the manage permission there are no refresh actions", async () => {
    hub.status = 'failed';
    open([P.DeviceListView, P.DeviceView]);
    expect(await screen.findByText(MSG.liveConnectionFailed)).toBeInTheDocument();
    await screen.findByTestId('config-tracking');
    expect(screen.queryByRole('button', { name: 'Refresh Configuration' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Refresh firmware' })).toBeNull();
  });

  it("the hub refusing the device shows 'Failed to subscribe device to live updates.'; a live event of the device clears it", async () => {
    open();
    await screen.findByRole('region', { name: 'Configuration' });
    expect(screen.queryByText(MSG.liveSubscribeFailed)).toBeNull();
    emit('onSubscribeFailed', [IMEI]);
    expect(await screen.findByText(MSG.liveSubscribeFailed)).toBeInTheDocument();
    emit('MessageStream', hubPayload.MessageStream(makeMessage({ MessageId: 'live-9', Message: 'SOS alarm' })));
    await waitFor(() => expect(screen.queryByText(MSG.liveSubscribeFailed)).toBeNull());
  });
});
