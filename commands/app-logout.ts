import { defineCommand } from '../src/app/keyboard/define';

export default defineCommand({
  id: 'app.logout',
  title: 'Log out',
  group: 'Session',
  permission: 'signed-in',
  keywords: ['sign out', 'logout', 'exit'],
  run: (ctx) => ctx.logout(),
});
