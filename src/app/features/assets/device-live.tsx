// The device tab's live column (spec document 2 §4 "Device detail live updates"): the device's
// identity (IMEI, else serial) is watched on the hub while the tab is open (the hub client
// re-sends the subscription every 10 minutes and joins again after a reconnect). A message event
// goes on top of the Message Stream; any event of the device marks it Connected (DeviceConnected
// says either way); DeviceConfigurationUpdated for this device refetches its configuration.
import { useState } from 'react';
import { Callout, Flex } from '@radix-ui/themes';
import { useQueryClient } from '@tanstack/react-query';
import { liveKeys, useDeviceLive } from '../../api/live';
import { MSG } from '../../../shared/messages';
import { deviceIdentityOf, type DeviceMessageDto } from '../../../shared/schemas/live';
import type { DeviceDto } from '../../api/devices';
import { DeviceConfiguration } from './device-config';
import { DeviceStream } from './device-stream';
import './device-live.css';

/** Live messages kept on top of the fetched pages (older ones are in the pages after a refetch). */
const LIVE_KEEP = 200;

export function DeviceLiveColumn({ device }: { device: DeviceDto }) {
  const qc = useQueryClient();
  const identity = deviceIdentityOf(device);
  const [live, setLive] = useState<DeviceMessageDto[]>([]);
  const [connected, setConnected] = useState<boolean | null>(null);
  // The hub refused this device (spec §8 'Failed to subscribe device to live updates.'); an event of the device clears it.
  const [subscribeFailed, setSubscribeFailed] = useState(false);
  const status = useDeviceLive([identity], {
    MessageStream: (m) => {
      setLive((l) => (l.some((x) => x.MessageId === m.MessageId) ? l : [m, ...l].slice(0, LIVE_KEEP)));
      setConnected(true);
      setSubscribeFailed(false);
    },
    DeviceMonitoring: (row) => setConnected(row.IsConnected),
    DeviceConnected: (e) => setConnected(e.IsConnected),
    DeviceConfigurationUpdated: (e) => {
      if (e.Id === device.id) void qc.invalidateQueries({ queryKey: liveKeys.configurationById(device.id) });
    },
    onSubscribeFailed: () => setSubscribeFailed(true),
  });
  return (
    <Flex direction="column" gap="4" className="lw-device-live">
      {subscribeFailed && (
        <Callout.Root color="red" role="alert" size="1">
          <Callout.Text>{MSG.liveSubscribeFailed}</Callout.Text>
        </Callout.Root>
      )}
      <DeviceConfiguration deviceId={device.id} serial={device.serialNumber} connected={connected} />
      <DeviceStream identity={identity} live={live} state={status} />
    </Flex>
  );
}
