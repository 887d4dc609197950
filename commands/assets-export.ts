import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES, getHref } from '../src/app/paths';
import { P } from '../src/shared/permissions';
import { requestAssetExportOnOpen, runAssetExport } from '../src/app/features/assets/asset-events';

/** Exports the focused asset list (its filters) to .xlsx, after the list's confirmation; elsewhere opens the list first. */
export default defineCommand({
  id: 'assets.export',
  title: 'Export assets',
  group: 'Devices',
  keys: 'alt+shift+e',
  permission: P.DeviceExport,
  keywords: ['export', 'xlsx', 'excel', 'download', 'devices', 'assets'],
  routes: ['assets'],
  when: (ctx) => ctx.can(ROUTES.assets.permission),
  disabledReason: 'You cannot open the asset list.',
  run: (ctx) => {
    if (ctx.focusedTab?.route === 'assets' && runAssetExport(ctx.focusedTab.id)) return;
    requestAssetExportOnOpen();
    ctx.openRoute(getHref('assets'), { beside: ctx.beside, focus: true });
  },
});
