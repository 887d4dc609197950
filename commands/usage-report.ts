import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES, getHref } from '../src/app/paths';
import { CUSTOMER_ROUTES, focusedCustomerId, NO_CUSTOMER } from '../src/app/features/customers/customer-tab-commands';

/** The usage report (last month first) of the customer the focused tab shows, in a tab of its own. */
export default defineCommand({
  id: 'customer.usage-report',
  title: 'Customer: Usage Report',
  group: 'Customers',
  keys: 'c u',
  permission: ROUTES.customerUsageReport.permission,
  keywords: ['usage', 'report', 'days used', 'check-ins', 'low battery', 'rate', 'month', 'customer'],
  routes: CUSTOMER_ROUTES,
  when: (ctx) => focusedCustomerId(ctx) !== null,
  disabledReason: NO_CUSTOMER,
  run: (ctx) => {
    const customerId = focusedCustomerId(ctx);
    if (!customerId) return;
    return ctx.openRoute(getHref('customerUsageReport', { customerId }), { beside: ctx.beside, focus: true });
  },
});
