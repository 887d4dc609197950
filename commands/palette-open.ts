import { defineCommand } from '../src/app/keyboard/define';

export default defineCommand({
  id: 'palette.open',
  title: 'Open command palette',
  group: 'General',
  keys: 'mod+k',
  keywords: ['search', 'find', 'go to'],
  palette: false,
  run: (ctx) => ctx.ui.togglePalette(),
});
