import { defineCommand } from '../src/app/keyboard/define';
import { P } from '../src/shared/permissions';
import { deviceActionsOf } from '../src/app/features/assets/device-events';

/** The device tab's Refresh Configuration (asks the device for its configuration; 'Pending' until it answers). */
export default defineCommand({
  id: 'device.refresh-config',
  title: 'Refresh device configuration',
  group: 'Devices',
  keys: 'd r',
  permission: P.DeviceManage,
  keywords: ['device', 'configuration', 'refresh', 'request configuration'],
  routes: ['device'],
  when: (ctx) => ctx.focusedTab?.route === 'device' && !!deviceActionsOf(ctx.focusedTab.id),
  disabledReason: 'Open a device tab first.',
  run: (ctx) => deviceActionsOf(ctx.focusedTab?.id)?.refreshConfiguration(),
});
