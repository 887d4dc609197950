import { defineCommand } from '../src/app/keyboard/define';

export default defineCommand({
  id: 'pane.split-right',
  title: 'Split pane right',
  group: 'Panes',
  keys: 'alt+\\',
  keywords: ['split', 'side by side', 'compare', 'vertical split'],
  run: (ctx) => ctx.workspace.splitPane('horizontal'),
});
