// Which Radix parts the app takes only through its own wrappers (ESLint `no-restricted-imports`).
//   Dialog, AlertDialog: a page's dialog belongs to its pane and opens over it, so pages take them
//     from src/app/ui/dialog.tsx, which renders them into the pane's dialog layer. Taken straight
//     from Radix they would cover the whole window.
//   Table, ScrollArea: Radix's table scrolls inside a scroll area that the keyboard cannot reach
//     (axe: scrollable-region-focusable); src/app/ui/table.tsx makes it a named region that takes
//     the focus while it scrolls.
// The app-wide dialogs may take Dialog and AlertDialog from Radix: they are about the workspace as
// a whole, not about one pane, and cover the window on purpose (APP_WIDE_DIALOG_FILES).

const dialogMessage =
  "A page's dialog belongs to its pane: import Dialog / AlertDialog from src/app/ui/dialog.tsx (only the app-wide dialogs listed in eslint/ui-imports.js take them from Radix).";
const tableMessage = 'Radix tables scroll in a region the keyboard cannot reach: import Table from src/app/ui/table.tsx.';

/** `no-restricted-imports` paths for all app code. */
export const RESTRICTED_UI_IMPORTS = [
  { name: '@radix-ui/themes', importNames: ['Dialog', 'AlertDialog'], message: dialogMessage },
  { name: '@radix-ui/themes', importNames: ['Table', 'ScrollArea'], message: tableMessage },
  { name: 'radix-ui', importNames: ['Dialog', 'AlertDialog'], message: dialogMessage },
  { name: 'radix-ui', importNames: ['ScrollArea'], message: tableMessage },
  { name: '@radix-ui/react-dialog', message: dialogMessage },
  { name: '@radix-ui/react-alert-dialog', message: dialogMessage },
  { name: '@radix-ui/react-scroll-area', message: tableMessage },
];

/**
 * Files that may take Dialog / AlertDialog straight from Radix, and why each covers the window.
 * The wrappers themselves (src/app/ui/dialog.tsx, src/app/ui/table.tsx) take what they wrap.
 */
export const APP_WIDE_DIALOG_FILES = [
  'src/app/ui/dialog.tsx', // the wrapper itself
  'src/app/palette/palette.tsx', // the command palette: opens over everything, acts on any pane
  'src/app/shell/settings-dialog.tsx', // the user's own settings (second factor, password): not about a pane
  'src/app/shell/idle-dialogs.tsx', // session expired / signed out: the whole workspace is gone
  'src/app/features/bulk-update/bulk-global.tsx', // the scanner's offer: a scan outside any field, for the bulk list
  'src/app/keyboard/cheat-sheet.tsx', // the shortcut sheet: every pane's shortcuts
];

/** Files that may take Table / ScrollArea straight from Radix: the wrapper. */
export const TABLE_WRAPPER_FILES = ['src/app/ui/table.tsx'];

const except = (message) => RESTRICTED_UI_IMPORTS.filter((p) => p.message !== message);

/** Flat-config blocks for eslint.config.js: all app code, then the files allowed their exception. */
export const uiImportConfigs = [
  { files: ['src/app/**/*.{ts,tsx}', 'commands/**/*.{ts,tsx}'], rules: { 'no-restricted-imports': ['error', { paths: RESTRICTED_UI_IMPORTS }] } },
  { files: APP_WIDE_DIALOG_FILES, rules: { 'no-restricted-imports': ['error', { paths: except(dialogMessage) }] } },
  { files: TABLE_WRAPPER_FILES, rules: { 'no-restricted-imports': ['error', { paths: except(tableMessage) }] } },
];
