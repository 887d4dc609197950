import { defineCommand } from '../src/app/keyboard/define';

/** Percent of its split a pane grows or shrinks by per key press. */
export const PANE_STEP = 5;

export default defineCommand({
  id: 'pane.grow',
  title: 'Grow pane',
  group: 'Panes',
  repeat: true,
  keys: 'alt+.',
  keywords: ['resize', 'wider', 'bigger'],
  when: (ctx) => ctx.paneCount > 1,
  disabledReason: 'There is only one pane.',
  run: (ctx) => ctx.workspace.resizeFocusedPane(PANE_STEP),
});
