import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES, getHref } from '../src/app/paths';

export default defineCommand({
  id: 'nav.profile',
  title: 'Edit own profile',
  group: 'Navigation',
  keys: 'g p',
  permission: ROUTES.editOwnProfile.permission,
  keywords: ['profile', 'my account', 'me'],
  run: (ctx) => ctx.openRoute(getHref('editOwnProfile'), { beside: ctx.beside, focus: true }),
});
