// docs/shortcuts.md, generated from the registry (bin/print-shortcuts.ts prints it;
// tests/unit/commands/cheat-sheet.test.tsx fails when the committed file is out of date).
import { COMMAND_GROUPS, assertValidRegistry, type Command } from './define';
import { formatKeysText, RESERVED_KEYS } from './keys';

export function renderShortcutSheet(commands: readonly Command[]): string {
  assertValidRegistry(commands);
  const lines: string[] = [
    '# Keyboard shortcuts',
    '',
    '<!-- Generated from commands/index.ts by `node --import tsx bin/print-shortcuts.ts > docs/shortcuts.md`. Do not edit by hand. -->',
    '',
    'Press `?` in the app for the same list (only what your permissions allow), or Ctrl+K (⌘K) for the palette.',
    'Plain keys and sequences (`g u`: press g, then u within a second) never fire while typing in a field; Ctrl/Alt/⌘ shortcuts do.',
    '',
  ];
  for (const group of COMMAND_GROUPS) {
    const list = commands.filter((c) => c.group === group);
    if (!list.length) continue;
    lines.push(`## ${group}`, '', '| Command | Windows / Linux | macOS | Id | In palette |', '|---|---|---|---|---|');
    for (const c of list) {
      const win = c.keys ? formatKeysText(c.keys, false) : '—';
      const mac = c.keys ? formatKeysText(c.keys, true) : '—';
      lines.push(`| ${c.title} | ${win.replace(/\|/g, '\\|')} | ${mac.replace(/\|/g, '\\|')} | \`${c.id}\` | ${c.palette === false ? 'no' : 'yes'} |`);
    }
    lines.push('');
  }
  lines.push(
    '## Tab strips and pane separators',
    '',
    '- Tab strip (WAI-ARIA tabs): ← / → move between tabs (the tab shows at once), Home / End jump to the first / last tab, Delete closes the tab, middle click closes it.',
    '- Pane separator (WAI-ARIA window splitter): arrow keys resize by 5 %, Home / End go to the limits.',
    "- List (WAI-ARIA grid): ↑ / ↓ move between rows, Home / End jump to the first / last row, PageUp / PageDown move by a screen; the Lists shortcuts above act on the list that has the focus, else on the focused tab's list. A row that opens a record is a link: middle click or Ctrl/⌘-click opens it in a new browser tab.",
    '- Barcode scanner: a burst of keys (under 35 ms apart) ending in Enter outside a text field is taken as a scan, not as shortcuts.',
    '- Palette: Enter opens in the focused pane, Ctrl/⌘+Enter beside it (in the other pane, splitting if needed); prefixes `>` commands, `#` devices, `@` persons, `!` alarm reports, `$` customers; Backspace on an empty box removes the scope. Records still listed from the first letters typed are not picked while the whole text is being searched; Enter with nothing else to pick waits for that answer and opens its best row.',
    '',
    '## Keys left to the browser',
    '',
    'No command may use these (the registry test fails): ' + RESERVED_KEYS.map((r) => `\`${r.keys}\``).join(', ') + '.',
    '',
  );
  return lines.join('\n');
}
