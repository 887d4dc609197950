// Shared by the customer tab commands: the customer the focused tab shows (any /customers/{id}/…
// route), and switching that same tab to another of the customer's routes.
import type { CommandContext } from '../../keyboard/define';
import { getHref, type RouteId } from '../../paths';

export const CUSTOMER_ROUTES: RouteId[] = [
  'customerAccount',
  'customerSubscriptions',
  'customerDevices',
  'customerSettings',
  'customerAllocate',
  'customerAccountEdit',
  'customerManagementReport',
  'customerUsageReport',
];

export function focusedCustomerId(ctx: CommandContext): string | null {
  const tab = ctx.focusedTab;
  if (!tab || !CUSTOMER_ROUTES.includes(tab.route)) return null;
  return tab.params.customerId ?? null;
}

export const NO_CUSTOMER = 'Open a customer first.';

/** The focused customer tab shows `route` (its history keeps the old one; a dirty form asks first). */
export async function switchCustomerTab(ctx: CommandContext, route: RouteId): Promise<void> {
  const customerId = focusedCustomerId(ctx);
  const tab = ctx.focusedTab;
  if (!customerId || !tab) return;
  const href = getHref(route, { customerId });
  if (ctx.beside) {
    ctx.openRoute(href, { beside: true, focus: true });
    return;
  }
  // Loaded on use: the workspace actions need the app's store (this module also loads in the doc generator).
  const { navigateTab } = await import('../../workspace/actions');
  await navigateTab(tab.id, href, ctx.store);
}
