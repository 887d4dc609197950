import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES } from '../src/app/paths';
import { focusedCustomerId, switchCustomerTab, CUSTOMER_ROUTES, NO_CUSTOMER } from '../src/app/features/customers/customer-tab-commands';

/** The open customer's Account page, in the same tab (Ctrl/⌘+Enter in the palette: beside). */
export default defineCommand({
  id: 'customer.tab-account',
  title: 'Customer: Account',
  group: 'Customers',
  keys: 'c a',
  permission: ROUTES.customerAccount.permission,
  keywords: ['customer', 'account'],
  routes: CUSTOMER_ROUTES,
  when: (ctx) => focusedCustomerId(ctx) !== null,
  disabledReason: NO_CUSTOMER,
  run: (ctx) => switchCustomerTab(ctx, 'customerAccount'),
});
