import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES, getHref } from '../src/app/paths';
import { assetSerials } from '../src/app/features/assets/asset-events';

/**
 * Puts every device the focused asset list's filters select (all its pages; a Fleet Health count
 * opens such a list) on the Bulk Update list, selected, and goes there: from a filter to a bulk
 * change (Change Configuration, status, order number) without scanning.
 */
export default defineCommand({
  id: 'assets.to-bulk',
  title: 'Put the listed devices on the bulk list',
  group: 'Devices',
  keys: 'b l',
  permission: ROUTES.bulkUpdate.permission,
  keywords: ['bulk update', 'bulk list', 'select all', 'filtered', 'fleet health', 'devices', 'assets'],
  routes: ['assets'],
  when: (ctx) => !!assetSerials(ctx.focusedTab?.id),
  disabledReason: 'Open the asset list first.',
  run: async (ctx) => {
    const serials = await assetSerials(ctx.focusedTab?.id)?.();
    if (!serials) return;
    // Loaded when it runs: the bulk list's service reads the session, which the shortcut sheet's
    // generator (run in Node) does not have.
    const { addSerials } = await import('../src/app/features/bulk-update/bulk-service');
    addSerials(serials);
    ctx.openRoute(getHref('bulkUpdate'), { beside: ctx.beside, focus: true });
  },
});
