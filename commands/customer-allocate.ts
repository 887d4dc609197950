import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES } from '../src/app/paths';
import { focusedCustomerId, switchCustomerTab, CUSTOMER_ROUTES, NO_CUSTOMER } from '../src/app/features/customers/customer-tab-commands';

/** The open customer's Allocate devices page, in the same tab (Ctrl/⌘+Enter in the palette: beside). */
export default defineCommand({
  id: 'customer.allocate',
  title: 'Allocate devices to this customer',
  group: 'Customers',
  keys: 'c l',
  permission: ROUTES.customerAllocate.permission,
  keywords: ['customer', 'allocate'],
  routes: CUSTOMER_ROUTES,
  when: (ctx) => focusedCustomerId(ctx) !== null,
  disabledReason: NO_CUSTOMER,
  run: (ctx) => switchCustomerTab(ctx, 'customerAllocate'),
});
