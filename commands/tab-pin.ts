import { defineCommand } from '../src/app/keyboard/define';

export default defineCommand({
  id: 'tab.pin',
  title: 'Pin or unpin tab',
  group: 'Tabs',
  keys: 'alt+p',
  keywords: ['pin', 'unpin', 'keep'],
  when: (ctx) => !!ctx.focusedTab,
  disabledReason: 'No tab is open in this pane.',
  run: (ctx) => ctx.workspace.togglePinTab(),
});
