// Device fixtures built from the contract's types (src/shared/schemas/devices.ts): a stored device
// starts from the contract's placeholder shape, so a new contract field breaks the type here first.
import { placeholderDevice, type DeviceDto, type DeviceList } from '../../../src/shared/schemas/devices';
import { SIM_TYPES, DEVICE_TYPES } from '../../../src/shared/codes';
import type { DeviceTypeDto, LookupDto } from '../../../src/shared/schemas/reference';

export const DEVICE_ID = 'dddddddd-0000-4000-8000-000000000001';

export const makeDevice = (over: Partial<DeviceDto> = {}): DeviceDto => ({
  ...placeholderDevice('SG750-00001'),
  id: DEVICE_ID,
  etag: 'etag-1',
  imei: '358114028094354',
  imsi: '234100416349119',
  type: { value: 750, name: 'SG750' },
  phoneNumber: '+447513063887',
  simSerial: '8944110006226110406',
  simTypeId: 1,
  simType: { value: 1, name: 'Vodafone' },
  simStatus: { name: 'Active' },
  supplier: 'Connexion Distribution Ltd',
  status: { value: 1, name: 'New' },
  orderNumber: 'SO-0100088',
  isUserAssigned: false,
  firmwareVersion: '1.4.2',
  lastConfigurationDate: '2026-05-17T20:51:00.000Z',
  dateReceived: '2025-06-25T00:00:00.000Z',
  lastUpdated: '2026-07-03T07:38:00.000Z',
  addedToSystem: '2025-06-28T07:45:00.000Z',
  ...over,
});

export const makeDeviceList = (devices: DeviceDto[], totalCount = devices.length, generalTotalCount = 100_000): DeviceList => ({
  devices,
  totalCount,
  generalTotalCount,
});

export const SIM_TYPES_ANSWER: LookupDto[] = SIM_TYPES.map((s) => ({ Value: s.Value, Name: s.Name }));
export const DEVICE_TYPES_ANSWER: DeviceTypeDto[] = DEVICE_TYPES.map((t) => ({ Value: t.Value, Name: t.Name, Capabilities: 0 }));
