import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES } from '../src/app/paths';
import { hasSelection, NO_SELECTION, openManageTab } from '../src/app/features/bulk-manage/manage-tab-commands';

/** Configure & Test Devices for the bulk list's selection: the Current Configuration tab. */
export default defineCommand({
  id: 'bulk.manage-current-config',
  title: 'Configure & Test: Current Configuration',
  group: 'Devices',
  keys: 'b v',
  permission: ROUTES.bulkCurrentConfig.permission,
  keywords: ['configure', 'test', 'bulk', 'current configuration', 'manage devices'],
  routes: ['bulkUpdate', 'bulkDeviceTesting', 'bulkChangeConfig'],
  when: hasSelection,
  disabledReason: NO_SELECTION,
  run: (ctx) => openManageTab(ctx, 'bulkCurrentConfig'),
});
