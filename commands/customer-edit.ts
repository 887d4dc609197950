import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES } from '../src/app/paths';
import { focusedCustomerId, switchCustomerTab, CUSTOMER_ROUTES, NO_CUSTOMER } from '../src/app/features/customers/customer-tab-commands';

/** The open customer's Edit Account form, in the same tab. */
export default defineCommand({
  id: 'customer.edit',
  title: 'Edit customer account',
  group: 'Customers',
  keys: 'c e',
  permission: ROUTES.customerAccountEdit.permission,
  keywords: ['customer', 'edit', 'account', 'change'],
  routes: CUSTOMER_ROUTES,
  when: (ctx) => focusedCustomerId(ctx) !== null && ctx.focusedTab?.route !== 'customerAccountEdit',
  disabledReason: NO_CUSTOMER,
  run: (ctx) => switchCustomerTab(ctx, 'customerAccountEdit'),
});
