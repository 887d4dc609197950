import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES, getHref } from '../src/app/paths';

/** Opens the Create Account form (spec document 2: /customers/create, create-customer permission). */
export default defineCommand({
  id: 'customer.create',
  title: 'Create customer account',
  group: 'Customers',
  keys: 'c n',
  permission: ROUTES.customerCreate.permission,
  keywords: ['new customer', 'create account', 'add customer', 'onboard'],
  routes: ['customers'],
  run: (ctx) => ctx.openRoute(getHref('customerCreate'), { beside: ctx.beside, focus: true }),
});
