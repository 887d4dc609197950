import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { act, cleanup, screen, within } from '@testing-library/react';
import { CheatSheet, shortcutGroups } from '../../../src/app/keyboard/cheat-sheet';
import { cheatSheetOpenAtom } from '../../../src/app/keyboard/cheat-sheet-state';
import { renderShortcutSheet } from '../../../src/app/keyboard/shortcut-sheet';
import { COMMANDS } from '../../../commands/index';
import { appStore } from '../../../src/app/state/store';
import { P } from '../../../src/shared/permissions';
import { installDomGaps, renderWithApp, resetAll, signIn } from '../workspace/helpers';

beforeAll(installDomGaps);
afterEach(cleanup);

describe('cheat sheet', () => {
  it('lists the shortcuts the user may use, grouped, with their keys', async () => {
    resetAll('/');
    signIn('u1', [P.HasAccess, P.AlarmReportListView, P.AlarmReportView]);
    renderWithApp(<CheatSheet commands={COMMANDS} />);
    act(() => appStore.set(cheatSheetOpenAtom, true));
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    const nav = within(dialog).getByRole('region', { name: 'Navigation' });
    expect(within(nav).getByRole('rowheader', { name: 'Go to Alarm Reports' })).toBeInTheDocument();
    expect(within(nav).queryByRole('rowheader', { name: 'Go to User Management' })).toBeNull(); // no permission
    const tabsRow = within(within(dialog).getByRole('region', { name: 'Tabs' }))
      .getByRole('rowheader', { name: 'Close tab' })
      .closest('tr')!;
    expect(tabsRow).toHaveTextContent('Alt+W');
    expect(within(dialog).getByRole('rowheader', { name: 'Go to Alarm Reports' }).closest('tr')).toHaveTextContent('G then R');
  });

  it('groups only commands that have keys', () => {
    const groups = shortcutGroups(COMMANDS, () => true);
    expect(groups.flatMap((g) => g.commands).every((c) => !!c.keys)).toBe(true);
    expect(groups.map((g) => g.group)).toEqual(['General', 'Navigation', 'Lists', 'Devices', 'Customers', 'Alarm reports', 'Tabs', 'Panes']);
  });

  it('docs/shortcuts.md is the generated sheet (run the generator after changing commands)', () => {
    expect(readFileSync('docs/shortcuts.md', 'utf8')).toBe(renderShortcutSheet(COMMANDS));
  });
});
