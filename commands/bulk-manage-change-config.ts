import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES } from '../src/app/paths';
import { P } from '../src/shared/permissions';
import { hasSelection, NO_SELECTION, openManageTab } from '../src/app/features/bulk-manage/manage-tab-commands';

/** Configure & Test Devices for the bulk list's selection: the Change Configuration tab. */
export default defineCommand({
  id: 'bulk.manage-change-config',
  title: 'Configure & Test: Change Configuration',
  group: 'Devices',
  keys: 'b e',
  permission: P.DeviceManage,
  keywords: ['configure', 'bulk', 'change configuration', 'tracking', 'fall detection', 'call buttons', 'command'],
  routes: ['bulkUpdate', 'bulkCurrentConfig', 'bulkDeviceTesting'],
  when: (ctx) => hasSelection(ctx) && ctx.can(ROUTES.bulkChangeConfig.permission),
  disabledReason: NO_SELECTION,
  run: (ctx) => openManageTab(ctx, 'bulkChangeConfig'),
});
