import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES, getHref } from '../src/app/paths';

export default defineCommand({
  id: 'nav.fleet',
  title: 'Go to Fleet Health',
  group: 'Navigation',
  keys: 'g f',
  permission: ROUTES.fleetHealth.permission,
  keywords: ['fleet', 'health', 'silent', 'battery', 'charged', 'unused', 'switched off', 'firmware', 'usage'],
  run: (ctx) => ctx.openRoute(getHref('fleetHealth'), { beside: ctx.beside, focus: true }),
});
