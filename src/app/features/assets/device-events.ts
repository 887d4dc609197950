// The link between the device commands (refresh configuration / firmware) and the device tabs: a
// mounted device tab registers its actions under its workspace tab id; a command runs the focused
// tab's. No DOM or React here, so the command modules (and the doc generator) can load it.
export type DeviceTabActions = { refreshConfiguration: () => unknown; refreshFirmware: () => unknown };

const tabs = new Map<string, DeviceTabActions>();

export function registerDeviceActions(tabId: string, actions: DeviceTabActions): () => void {
  tabs.set(tabId, actions);
  return () => {
    if (tabs.get(tabId) === actions) tabs.delete(tabId);
  };
}

/** The actions of the device tab `tabId`, or null when that tab shows no device (yet). */
export function deviceActionsOf(tabId: string | undefined): DeviceTabActions | null {
  return (tabId && tabs.get(tabId)) || null;
}
