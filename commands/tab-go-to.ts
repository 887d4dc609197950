import { defineCommand } from '../src/app/keyboard/define';

// tab.go-1 … tab.go-9: Alt+N shows tab N of the focused pane; Alt+9 the last one, as browsers do.
// Nine near-identical commands, so they share this file.
const tabGoTo = Array.from({ length: 9 }, (_, i) => {
  const n = i + 1;
  return defineCommand({
    id: `tab.go-${n}`,
    title: n === 9 ? 'Go to last tab' : `Go to tab ${n}`,
    group: 'Tabs',
    keys: `alt+${n}`,
    palette: false,
    when: (ctx) => ctx.tabCount >= (n === 9 ? 1 : n),
    disabledReason: `This pane has fewer than ${n} tabs.`,
    run: (ctx) => ctx.workspace.goToTab(n),
  });
});

export default tabGoTo;
