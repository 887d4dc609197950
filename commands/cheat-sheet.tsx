// The `?` cheat sheet: every shortcut the user can use, generated from the registry, grouped.
import { useAtom } from 'jotai';
import { Dialog, Table, Text } from '@radix-ui/themes';
import { COMMANDS } from './index';
import { COMMAND_GROUPS, isPermitted, type Command } from './define';
import { formatKeys } from './keys';
import { cheatSheetOpenAtom } from './cheat-sheet-state';
import { useCan } from '../src/app/state/session';

export function shortcutGroups(commands: readonly Command[], can: (a: string) => boolean) {
  return COMMAND_GROUPS.map((group) => ({
    group,
    commands: commands.filter((c) => c.group === group && c.keys && isPermitted(c, can)),
  })).filter((g) => g.commands.length > 0);
}

export function CheatSheet({ commands = COMMANDS }: { commands?: readonly Command[] }) {
  const [open, setOpen] = useAtom(cheatSheetOpenAtom);
  const can = useCan();
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Content className="cheat-sheet" maxWidth="720px" aria-describedby={undefined}>
        <Dialog.Title>Keyboard shortcuts</Dialog.Title>
        {open &&
          shortcutGroups(commands, can).map(({ group, commands: list }) => (
            <section key={group} aria-label={group}>
              <Text as="p" weight="bold" size="2" mt="3" mb="1">{group}</Text>
              <Table.Root size="1">
                <Table.Body>
                  {list.map((c) => (
                    <Table.Row key={c.id}>
                      <Table.RowHeaderCell>{c.title}</Table.RowHeaderCell>
                      <Table.Cell justify="end">
                        {formatKeys(c.keys!).map((k, i) => (
                          <span key={i}>
                            {i > 0 && <Text size="1" color="gray"> then </Text>}
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
        <Text as="p" size="1" color="gray" mt="3">
          In a tab strip: ← → move between tabs, Home / End jump to the first / last, Delete closes. On a pane separator: arrow keys resize, Home / End go to the limits.
          In a list: ↑ ↓ move between rows, Home / End, PageUp / PageDown.
          Plain-key shortcuts and sequences do not fire while you type in a field.
        </Text>
      </Dialog.Content>
    </Dialog.Root>
  );
}
