// The device tab's Configuration section (spec document 2 §2 "Device detail page", §4 "Device
// detail live updates", §7 "Device configuration requests", §8): connection (Connected or not),
// last updated, tracking, fall detection, firmware version, SOS button, call 1 and call 2 numbers,
// primary and secondary end point, SMS backup; 'Configuration not known' when the device never
// reported one. Refresh Configuration and Refresh firmware ask the device (the last config date
// reads 'Pending' until it answers); the d r / d f commands run them on the focused device tab.
import { useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Card, DataList, Flex, Heading, Spinner, Text } from '@radix-ui/themes';
import { toast } from '../../ui/toast';
import { useTab } from '../../workspace/tab-context';
import { useCan } from '../../state/session';
import { errorMessage, errorStatus } from '../../api/query-client';
import { deviceConfigurationByIdQuery, liveKeys, requestConfigurationRefresh, requestFirmwareRefresh } from '../../api/live';
import { MSG } from '../../../shared/messages';
import { P } from '../../../shared/permissions';
import { trackingLabel } from '../../../shared/schemas/live';
import { fallDetectionLabel, formatInstant, onOff } from '../../../shared/device-config-format';
import { registerDeviceActions } from './device-events';
import { formatCount } from '../../../shared/numbers';
import { ActionButton } from '../../ui/action-button';

export const CONFIG_TEXTS = {
  title: 'Configuration',
  refreshConfiguration: 'Refresh Configuration',
  refreshFirmware: 'Refresh firmware',
  pending: 'Pending',
  connected: 'Connected',
  notConnected: 'Not connected',
  queued: (n: number) => `${formatCount(n)} configuration change(s) queued for this device.`,
} as const;

/** "Call type · number" of a call button, '-' when unknown. */
const callText = (type: { Name: string } | null, number: string | null) => [type?.Name, number].filter(Boolean).join(' · ') || '-';

/**
 * `connected`: what live events said about the device's connection (null: nothing yet, the
 * configuration's own value stands).
 */
export function DeviceConfiguration({ deviceId, serial, connected }: { deviceId: string; serial: string; connected: boolean | null }) {
  const tab = useTab();
  const can = useCan();
  const qc = useQueryClient();
  const config = useQuery(deviceConfigurationByIdQuery(deviceId));
  const c = config.data;
  const canManage = can(P.DeviceManage);

  const onRequestError = (err: unknown) =>
    toast.error(errorStatus(err) === 403 ? MSG.forbidden : errorStatus(err) === 404 ? errorMessage(err) : MSG.deviceConfigFailed);
  /** A request to the device: `requested` says it was sent, then the configuration is read again. */
  const deviceRequest = (send: (serial: string) => Promise<unknown>, requested: string) => ({
    mutationFn: () => send(serial),
    onSuccess: async () => {
      toast.success(requested);
      await qc.invalidateQueries({ queryKey: liveKeys.configurationById(deviceId) });
    },
    onError: onRequestError,
  });
  const refreshConfig = useMutation(deviceRequest(requestConfigurationRefresh, MSG.configUpdateRequested));
  const refreshFw = useMutation(deviceRequest(requestFirmwareRefresh, MSG.firmwareUpdateRequested));

  // The commands reach this tab's actions through the registration (the latest mutations).
  const actions = useRef({ refreshConfiguration: () => refreshConfig.mutate(), refreshFirmware: () => refreshFw.mutate() });
  useEffect(() => {
    actions.current = { refreshConfiguration: () => refreshConfig.mutate(), refreshFirmware: () => refreshFw.mutate() };
  });
  useEffect(
    () =>
      canManage
        ? registerDeviceActions(tab.tabId, {
            refreshConfiguration: () => actions.current.refreshConfiguration(),
            refreshFirmware: () => actions.current.refreshFirmware(),
          })
        : undefined,
    [tab.tabId, canManage],
  );

  const isConnected = connected ?? c?.IsConnected.Value ?? false;
  const known = !!c?.LastUpdated;
  const pending = !!c?.RefreshRequestedAt;
  return (
    <Card size="2" asChild>
      <section aria-labelledby="device-config-h">
        <Flex align="center" justify="between" gap="2" mb="2" wrap="wrap">
          <Heading as="h2" size="3" id="device-config-h">
            {CONFIG_TEXTS.title}
          </Heading>
          {c && (
            <Badge size="2" color={isConnected ? 'green' : 'gray'} data-testid="device-connection">
              {isConnected ? CONFIG_TEXTS.connected : CONFIG_TEXTS.notConnected}
            </Badge>
          )}
        </Flex>
        {config.isPending ? (
          <Flex gap="2" align="center" role="status">
            <Spinner /> <Text size="2">Loading…</Text>
          </Flex>
        ) : !c ? (
          <Text size="2" color="red" role="alert">
            {errorMessage(config.error)}
          </Text>
        ) : (
          <Flex direction="column" gap="3">
            <DataList.Root size="2">
              <DataList.Item>
                <DataList.Label>Last updated</DataList.Label>
                <DataList.Value data-testid="config-last-updated">{pending ? CONFIG_TEXTS.pending : formatInstant(c.LastUpdated)}</DataList.Value>
              </DataList.Item>
              {known && (
                <>
                  <DataList.Item>
                    <DataList.Label>Tracking</DataList.Label>
                    <DataList.Value data-testid="config-tracking">{trackingLabel(c.IsTracking, c.TrackingSeconds)}</DataList.Value>
                  </DataList.Item>
                  <DataList.Item>
                    <DataList.Label>Fall detection</DataList.Label>
                    <DataList.Value data-testid="config-fall">
                      {fallDetectionLabel(c.IsFallDetection, c.FallDetectionSettings, c.FirmwareVersion)}
                    </DataList.Value>
                  </DataList.Item>
                </>
              )}
              <DataList.Item>
                <DataList.Label>Firmware version</DataList.Label>
                <DataList.Value data-testid="config-firmware">
                  {c.FirmwareRequestedAt ? `${c.FirmwareVersion ?? '-'} (${CONFIG_TEXTS.pending})` : (c.FirmwareVersion ?? '-')}
                </DataList.Value>
              </DataList.Item>
              {known && (
                <>
                  <DataList.Item>
                    <DataList.Label>SOS button</DataList.Label>
                    <DataList.Value>{onOff(c.SosButton)}</DataList.Value>
                  </DataList.Item>
                  <DataList.Item>
                    <DataList.Label>Call 1 number</DataList.Label>
                    <DataList.Value>{callText(c.Call1Type, c.Call1Number)}</DataList.Value>
                  </DataList.Item>
                  <DataList.Item>
                    <DataList.Label>Call 2 number</DataList.Label>
                    <DataList.Value>{callText(c.Call2Type, c.Call2Number)}</DataList.Value>
                  </DataList.Item>
                  <DataList.Item>
                    <DataList.Label>Primary end point</DataList.Label>
                    <DataList.Value>{c.PrimaryEndPoint ?? '-'}</DataList.Value>
                  </DataList.Item>
                  <DataList.Item>
                    <DataList.Label>Secondary end point</DataList.Label>
                    <DataList.Value>{c.SecondaryEndPoint ?? '-'}</DataList.Value>
                  </DataList.Item>
                  <DataList.Item>
                    <DataList.Label>SMS backup</DataList.Label>
                    <DataList.Value>{onOff(c.SmsBackup)}</DataList.Value>
                  </DataList.Item>
                </>
              )}
            </DataList.Root>
            {!known && (
              <Text size="2" color="gray" data-testid="config-unknown">
                {MSG.configurationNotKnown}
              </Text>
            )}
            {c.PendingChanges > 0 && (
              <Text size="2" color="amber" data-testid="config-queued">
                {CONFIG_TEXTS.queued(c.PendingChanges)}
              </Text>
            )}
            {canManage && (
              <Flex gap="2" wrap="wrap">
                <ActionButton variant="soft" onClick={() => refreshConfig.mutate()} busy={refreshConfig.isPending}>
                  {CONFIG_TEXTS.refreshConfiguration}
                </ActionButton>
                <ActionButton variant="soft" onClick={() => refreshFw.mutate()} busy={refreshFw.isPending}>
                  {CONFIG_TEXTS.refreshFirmware}
                </ActionButton>
              </Flex>
            )}
          </Flex>
        )}
      </section>
    </Card>
  );
}
