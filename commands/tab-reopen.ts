import { defineCommand } from '../src/app/keyboard/define';

export default defineCommand({
  id: 'tab.reopen',
  title: 'Reopen closed tab',
  group: 'Tabs',
  keys: 'alt+shift+t',
  keywords: ['undo close', 'restore'],
  when: (ctx) => ctx.closedCount > 0,
  disabledReason: 'No recently closed tab.',
  run: (ctx) => ctx.workspace.reopenClosedTab(),
});
