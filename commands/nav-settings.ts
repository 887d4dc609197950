import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES, getHref } from '../src/app/paths';

export default defineCommand({
  id: 'nav.settings',
  title: 'Go to Provider Settings',
  group: 'Navigation',
  keys: 'g s',
  permission: ROUTES.providerSettings.permission,
  keywords: ['settings', 'features', 'two-factor', '2fa', 'single sign-on', 'sso', 'domains'],
  run: (ctx) => ctx.openRoute(getHref('providerSettings'), { beside: ctx.beside, focus: true }),
});
