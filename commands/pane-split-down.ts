import { defineCommand } from '../src/app/keyboard/define';

export default defineCommand({
  id: 'pane.split-down',
  title: 'Split pane down',
  group: 'Panes',
  keys: 'alt+-',
  keywords: ['split', 'below', 'horizontal split'],
  run: (ctx) => ctx.workspace.splitPane('vertical'),
});
