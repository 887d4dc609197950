// The link between the device commands (refresh configuration / firmware) and the device tabs: a
// mounted device tab registers its actions under its workspace tab id; a command runs the focused
// tab's. No DOM or React here, so the command modules (and the doc generator) can load it.
import { tabRegistry } from './tab-registry';

export type DeviceTabActions = { refreshConfiguration: () => unknown; refreshFirmware: () => unknown };

const tabs = tabRegistry<DeviceTabActions>();

export const registerDeviceActions = (tabId: string, actions: DeviceTabActions): (() => void) => tabs.register(tabId, actions);

/** The actions of the device tab `tabId`, or null when that tab shows no device (yet). */
export const deviceActionsOf = (tabId: string | undefined): DeviceTabActions | null => tabs.of(tabId) ?? null;
