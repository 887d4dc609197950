import { defineCommand } from '../src/app/keyboard/define';

export default defineCommand({
  id: 'pane.focus-next',
  title: 'Focus next pane',
  group: 'Panes',
  keys: 'alt+`',
  keywords: ['switch pane', 'other pane'],
  when: (ctx) => ctx.paneCount > 1,
  disabledReason: 'There is only one pane.',
  run: (ctx) => ctx.workspace.focusNextPane(),
});
