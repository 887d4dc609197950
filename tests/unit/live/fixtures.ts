// Live fixtures built from the contract's types (src/shared/schemas/live.ts), so a contract change
// breaks them here first.
import type { DeviceConfigurationDto, DeviceMessageDto, LastMessageDto } from '../../../src/shared/schemas/live';
import { DEVICE_ID } from '../assets/fixtures';

export const IMEI = '358114028094354';
export const SERIAL = 'SG750-00001';

export const makeMessage = (over: Partial<DeviceMessageDto> = {}): DeviceMessageDto => ({
  MessageId: 'm-1',
  Message: 'Heartbeat',
  Date: '2026-11-22T09:00:00.000Z',
  Signal: 80,
  Battery: 90,
  Time: '2026-11-22T09:00:01.000Z',
  DeviceType: { Id: 750, Name: 'SG750' },
  Serial: SERIAL,
  DeviceIdentity: IMEI,
  PartitionKey: IMEI,
  Location: null,
  ...over,
});

export const makeConfiguration = (over: Partial<DeviceConfigurationDto> = {}): DeviceConfigurationDto => ({
  Id: DEVICE_ID,
  Serial: SERIAL,
  DeviceIdentity: IMEI,
  DeviceType: { Id: 750, Name: 'SG750' },
  IsConnected: { Value: false, Name: 'Not connected' },
  LastUpdated: '2026-11-20T08:00:00.000Z',
  IsTracking: true,
  TrackingSeconds: 900,
  IsFallDetection: true,
  FallDetectionSettings: '030-150-200',
  FirmwareVersion: '4.3.1',
  SosButton: true,
  Call1Type: { Value: 1, Name: 'Alarm Receiving Centre' },
  Call1Number: '+443301234567',
  Call2Type: { Value: 3, Name: 'Disabled' },
  Call2Number: null,
  PrimaryEndPoint: '203.0.113.10:5100',
  SecondaryEndPoint: null,
  SmsBackup: false,
  LastMessageDate: '2026-11-22T09:00:00.000Z',
  RefreshRequestedAt: null,
  FirmwareRequestedAt: null,
  PendingChanges: 0,
  ...over,
});

export const makeLastMessage = (over: Partial<LastMessageDto> = {}): LastMessageDto => ({
  DeviceId: DEVICE_ID,
  SerialNumber: SERIAL,
  DeviceType: { Id: 750, Name: 'SG750' },
  Date: '2026-11-22T09:00:00.000Z',
  Message: 'Heartbeat',
  Battery: 90,
  Signal: 80,
  IsConnected: false,
  IsEmpty: false,
  DeviceIdentity: IMEI,
  MessageId: 'm-1',
  PartitionKey: IMEI,
  ...over,
});
