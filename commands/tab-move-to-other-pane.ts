import { defineCommand } from '../src/app/keyboard/define';

export default defineCommand({
  id: 'tab.move-to-other-pane',
  title: 'Move tab to the other pane',
  group: 'Tabs',
  keys: 'alt+m',
  keywords: ['move', 'beside', 'side by side'],
  when: (ctx) => !!ctx.focusedTab && (ctx.paneCount > 1 || ctx.tabCount > 1),
  disabledReason: (ctx) => (ctx.focusedTab ? 'The only tab cannot move away from the only pane.' : 'No tab is open in this pane.'),
  run: (ctx) => ctx.workspace.moveTabToOtherPane(),
});
