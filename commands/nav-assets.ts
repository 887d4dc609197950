import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES, getHref } from '../src/app/paths';

export default defineCommand({
  id: 'nav.assets',
  title: 'Go to Asset Management',
  group: 'Navigation',
  keys: 'g a',
  permission: ROUTES.assets.permission,
  keywords: ['devices', 'stock', 'assets'],
  run: (ctx) => ctx.openRoute(getHref('assets'), { beside: ctx.beside, focus: true }),
});
