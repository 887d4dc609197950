import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES } from '../src/app/paths';
import { hasSelection, NO_SELECTION, openManageTab } from '../src/app/features/bulk-manage/manage-tab-commands';

/** Configure & Test Devices for the bulk list's selection: the Device Testing tab (live results). */
export default defineCommand({
  id: 'bulk.manage-device-testing',
  title: 'Configure & Test: Device Testing',
  group: 'Devices',
  keys: 'b t',
  permission: ROUTES.bulkDeviceTesting.permission,
  keywords: ['configure', 'test', 'bulk', 'device testing', 'last messages', 'live'],
  routes: ['bulkUpdate', 'bulkCurrentConfig', 'bulkChangeConfig'],
  when: hasSelection,
  disabledReason: NO_SELECTION,
  run: (ctx) => openManageTab(ctx, 'bulkDeviceTesting'),
});
