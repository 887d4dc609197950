import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES, getHref } from '../src/app/paths';

export default defineCommand({
  id: 'nav.bulk-update',
  title: 'Go to Bulk Update',
  group: 'Navigation',
  keys: 'g b',
  permission: ROUTES.bulkUpdate.permission,
  keywords: ['bulk', 'serial numbers', 'scan'],
  run: (ctx) => ctx.openRoute(getHref('bulkUpdate'), { beside: ctx.beside, focus: true }),
});
