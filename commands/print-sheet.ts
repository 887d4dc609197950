// Prints docs/shortcuts.md from the registry:
//   node --import tsx commands/print-sheet.ts > docs/shortcuts.md
import { renderShortcutSheet } from './shortcut-sheet';

process.stdout.write(renderShortcutSheet());
