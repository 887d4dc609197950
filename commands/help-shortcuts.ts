import { defineCommand } from '../src/app/keyboard/define';

export default defineCommand({
  id: 'help.shortcuts',
  title: 'Show keyboard shortcuts',
  group: 'General',
  keys: '?',
  keywords: ['help', 'keys', 'cheat sheet', 'hotkeys'],
  run: (ctx) => ctx.ui.openCheatSheet(),
});
