// Shared by the three 'Configure & Test Devices' commands: inside one of the manage tabs the same
// workspace tab switches to the asked one (the tab strip's behaviour); elsewhere the tab opens.
import type { CommandContext } from '../../keyboard/define';
import { getHref } from '../../paths';
import { bulkAtom } from '../../state/bulk';

export const MANAGE_ROUTE_IDS = ['bulkCurrentConfig', 'bulkDeviceTesting', 'bulkChangeConfig'] as const;
export type ManageRouteId = (typeof MANAGE_ROUTE_IDS)[number];

export const hasSelection = (ctx: CommandContext) => ctx.store.get(bulkAtom).selected.length > 0;
export const NO_SELECTION = 'Select devices on the bulk list first.';

export async function openManageTab(ctx: CommandContext, route: ManageRouteId) {
  const href = getHref(route);
  const tab = ctx.focusedTab;
  if (tab && !ctx.beside && (MANAGE_ROUTE_IDS as readonly string[]).includes(tab.route)) {
    if (tab.route === route) return;
    // Loaded on use: the workspace actions need a browser (this module also loads in the doc generator).
    const { navigateTab } = await import('../../workspace/actions');
    await navigateTab(tab.id, href);
    return;
  }
  ctx.openRoute(href, { beside: ctx.beside, focus: true });
}
