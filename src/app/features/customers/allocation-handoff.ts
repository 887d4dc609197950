// Devices imported on a customer's Devices tab wait here for that customer's Allocate Devices page
// (the page takes them once when it opens). No React, no DOM.
import type { DeviceDto } from '../../api/devices';

const waiting = new Map<string, DeviceDto[]>();

export function handOver(customerId: string, devices: DeviceDto[]) {
  waiting.set(customerId, devices);
}

export function takeHandedOver(customerId: string): DeviceDto[] {
  const d = waiting.get(customerId) ?? [];
  waiting.delete(customerId);
  return d;
}
