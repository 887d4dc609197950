import { defineCommand } from '../src/app/keyboard/define';
import { PANE_STEP } from './pane-grow';

export default defineCommand({
  id: 'pane.shrink',
  title: 'Shrink pane',
  group: 'Panes',
  repeat: true,
  keys: 'alt+,',
  keywords: ['resize', 'narrower', 'smaller'],
  when: (ctx) => ctx.paneCount > 1,
  disabledReason: 'There is only one pane.',
  run: (ctx) => ctx.workspace.resizeFocusedPane(-PANE_STEP),
});
