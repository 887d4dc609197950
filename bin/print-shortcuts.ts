// Prints docs/shortcuts.md from the registry:
//   node --import tsx bin/print-shortcuts.ts > docs/shortcuts.md
import { COMMANDS } from '../commands/index';
import { renderShortcutSheet } from '../src/app/keyboard/shortcut-sheet';

process.stdout.write(renderShortcutSheet(COMMANDS));
