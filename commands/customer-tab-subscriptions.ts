import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES } from '../src/app/paths';
import { focusedCustomerId, switchCustomerTab, CUSTOMER_ROUTES, NO_CUSTOMER } from '../src/app/features/customers/customer-tab-commands';

/** The open customer's Subscriptions page, in the same tab (Ctrl/⌘+Enter in the palette: beside). */
export default defineCommand({
  id: 'customer.tab-subscriptions',
  title: 'Customer: Subscriptions',
  group: 'Customers',
  keys: 'c s',
  permission: ROUTES.customerSubscriptions.permission,
  keywords: ['customer', 'subscriptions'],
  routes: CUSTOMER_ROUTES,
  when: (ctx) => focusedCustomerId(ctx) !== null,
  disabledReason: NO_CUSTOMER,
  run: (ctx) => switchCustomerTab(ctx, 'customerSubscriptions'),
});
