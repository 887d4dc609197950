import { defineCommand } from '../src/app/keyboard/define';

export default defineCommand({
  id: 'tab.prev',
  title: 'Previous tab',
  group: 'Tabs',
  repeat: true,
  keys: 'alt+[',
  when: (ctx) => ctx.tabCount > 1,
  disabledReason: 'This pane has only one tab.',
  run: (ctx) => ctx.workspace.cycleTab(-1),
});
