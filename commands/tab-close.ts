import { defineCommand } from '../src/app/keyboard/define';

export default defineCommand({
  id: 'tab.close',
  title: 'Close tab',
  group: 'Tabs',
  keys: 'alt+w',
  keywords: ['close'],
  // On an empty pane it closes the pane (when there is another one).
  when: (ctx) => !!ctx.focusedTab || ctx.paneCount > 1,
  disabledReason: 'No tab is open in this pane.',
  run: (ctx) => ctx.workspace.closeTab(),
});
