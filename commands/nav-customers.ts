import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES, getHref } from '../src/app/paths';

export default defineCommand({
  id: 'nav.customers',
  title: 'Go to Customers',
  group: 'Navigation',
  keys: 'g c',
  permission: ROUTES.customers.permission,
  keywords: ['accounts', 'customers'],
  run: (ctx) => ctx.openRoute(getHref('customers'), { beside: ctx.beside, focus: true }),
});
