import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES, getHref } from '../src/app/paths';

export default defineCommand({
  id: 'nav.users',
  title: 'Go to User Management',
  group: 'Navigation',
  keys: 'g u',
  permission: ROUTES.persons.permission,
  keywords: ['persons', 'users', 'staff', 'manage users'],
  run: (ctx) => ctx.openRoute(getHref('persons'), { beside: ctx.beside, focus: true }),
});
