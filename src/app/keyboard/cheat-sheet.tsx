// The `?` cheat sheet: every shortcut the user can use, generated from the registry, grouped; the
// groups flow into columns and the sheet scrolls inside the screen, never past it.
import { useAtom } from 'jotai';
import { Dialog, Text } from '@radix-ui/themes';
import { Table } from '../ui/table';
import { COMMAND_GROUPS, isPermitted, type Command } from './define';
import { formatKeys } from './keys';
import { cheatSheetOpenAtom } from './cheat-sheet-state';
import { useCan } from '../state/session';
import { DialogCloseButton } from '../shell/dialog-close-button';
import './cheat-sheet.css';

export function shortcutGroups(commands: readonly Command[], can: (a: string) => boolean) {
  return COMMAND_GROUPS.map((group) => ({
    group,
    commands: commands.filter((c) => c.group === group && c.keys && isPermitted(c, can)),
  })).filter((g) => g.commands.length > 0);
}

/** One row of the sheet: a command, or the nine 'Go to tab N' commands as one row. */
export type SheetRow = { id: string; title: string; keys: [string[]] };

const GO_TO_TAB = /^tab\.go-(\d)$/;

export function sheetRows(list: readonly Command[]): SheetRow[] {
  const rows: SheetRow[] = [];
  const goTo = list.filter((c) => GO_TO_TAB.test(c.id));
  for (const c of list) {
    if (GO_TO_TAB.test(c.id)) {
      if (c !== goTo[0]) continue;
      const first = formatKeys(c.keys!);
      const last = formatKeys((goTo.at(-1) ?? c).keys!);
      rows.push({
        id: 'tab.go-n',
        title: `Go to tab 1–${goTo.length}${goTo.length === 9 ? ' (9: the last tab)' : ''}`,
        keys: [[`${first.join('')} … ${last.join('')}`]],
      });
    } else rows.push({ id: c.id, title: c.title, keys: [formatKeys(c.keys!)] });
  }
  return rows;
}

export function CheatSheet({ commands }: { commands: readonly Command[] }) {
  const [open, setOpen] = useAtom(cheatSheetOpenAtom);
  const can = useCan();
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Content className="cheat-sheet" maxWidth="min(1100px, calc(100vw - 32px))" aria-describedby={undefined}>
        <Dialog.Title mb="2">Keyboard shortcuts</Dialog.Title>
        <DialogCloseButton />
        <div className="cheat-sheet-groups">
          {open &&
            shortcutGroups(commands, can).map(({ group, commands: list }) => (
              <section key={group} aria-label={group} className="cheat-sheet-group">
                <Text as="p" weight="bold" size="2" mt="2" mb="1">
                  {group}
                </Text>
                <Table.Root size="1" aria-label={`${group} shortcuts`}>
                  <Table.Body>
                    {sheetRows(list).map((r) => (
                      <Table.Row key={r.id}>
                        <Table.RowHeaderCell>{r.title}</Table.RowHeaderCell>
                        <Table.Cell justify="end" className="cheat-sheet-keys">
                          {r.keys[0].map((k, i) => (
                            <span key={i}>
                              {i > 0 && (
                                <Text size="1" color="gray">
                                  {' '}
                                  then{' '}
                                </Text>
                              )}
                              <kbd>{k}</kbd>
                            </span>
                          ))}
                        </Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </Table.Root>
              </section>
            ))}
        </div>
        <Text as="p" size="1" color="gray" mt="3">
          In a tab strip: ← → move between tabs, Home / End jump to the first / last, Delete closes. On a pane separator: arrow keys resize, Home / End go to
          the limits. In a list: ↑ ↓ move between rows, Home / End, PageUp / PageDown. Plain-key shortcuts and sequences do not fire while you type in a field.
        </Text>
      </Dialog.Content>
    </Dialog.Root>
  );
}
