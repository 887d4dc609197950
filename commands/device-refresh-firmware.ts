import { defineCommand } from '../src/app/keyboard/define';
import { P } from '../src/shared/permissions';
import { deviceActionsOf } from '../src/app/features/assets/device-events';

/** The device tab's Refresh firmware. */
export default defineCommand({
  id: 'device.refresh-firmware',
  title: 'Refresh device firmware',
  group: 'Devices',
  keys: 'd f',
  permission: P.DeviceManage,
  keywords: ['device', 'firmware', 'refresh', 'update firmware'],
  routes: ['device'],
  when: (ctx) => ctx.focusedTab?.route === 'device' && !!deviceActionsOf(ctx.focusedTab.id),
  disabledReason: 'Open a device tab first.',
  run: (ctx) => deviceActionsOf(ctx.focusedTab?.id)?.refreshFirmware(),
});
