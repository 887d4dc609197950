// Pages take Dialog / AlertDialog only from src/app/ui/dialog.tsx (so a page's dialog opens over its
// pane) and Table only from src/app/ui/table.tsx; the app-wide dialogs are the listed exceptions.
import { describe, expect, it } from 'vitest';
import { Linter } from 'eslint';
import { APP_WIDE_DIALOG_FILES, uiImportConfigs } from '../../../eslint/ui-imports.js';

const linter = new Linter({ configType: 'flat', cwd: process.cwd() });
// Plain import statements: the default parser reads them; the first block makes .ts/.tsx files linted at all.
const config = [{ files: ['**/*.{ts,tsx}'] }, ...uiImportConfigs];
const lint = (filename: string, code: string) => linter.verify(code, config, { filename: `${process.cwd()}/${filename}` }).map((m) => m.message);

describe('dialogs and tables come from the app wrappers', () => {
  it("refuses Radix's Dialog and AlertDialog in a page", () => {
    const page = 'src/app/features/persons/some-page.tsx';
    expect(lint(page, "import { Button, Dialog } from '@radix-ui/themes';")).toEqual([expect.stringMatching(/belongs to its pane.*ui\/dialog\.tsx/)]);
    expect(lint(page, "import { AlertDialog } from '@radix-ui/themes';")).toHaveLength(1);
    expect(lint(page, "import { Dialog } from 'radix-ui';")).toHaveLength(1);
    expect(lint(page, "import * as D from '@radix-ui/react-dialog';")).toHaveLength(1);
    expect(lint('commands/some-command.tsx', "import { Dialog } from '@radix-ui/themes';")).toHaveLength(1);
  });

  it('lets a page take them from ui/dialog.tsx, and anything else from Radix', () => {
    const page = 'src/app/features/persons/some-page.tsx';
    expect(lint(page, "import { Dialog, AlertDialog } from '../../ui/dialog';")).toEqual([]);
    expect(lint(page, "import { Button, Flex, Text } from '@radix-ui/themes';")).toEqual([]);
  });

  it("refuses Radix's Table and ScrollArea outside ui/table.tsx", () => {
    expect(lint('src/app/ui/history-panel.tsx', "import { Card, Table } from '@radix-ui/themes';")).toEqual([expect.stringMatching(/ui\/table\.tsx/)]);
    expect(lint('src/app/palette/palette.tsx', "import { ScrollArea } from '@radix-ui/themes';")).toHaveLength(1);
    expect(lint('src/app/ui/table.tsx', "import { ScrollArea, Table } from '@radix-ui/themes';")).toEqual([]);
  });

  it('the app-wide dialogs are the exceptions, and only for dialogs', () => {
    expect(APP_WIDE_DIALOG_FILES).toContain('src/app/palette/palette.tsx');
    for (const file of APP_WIDE_DIALOG_FILES) {
      expect(lint(file, "import { AlertDialog, Dialog } from '@radix-ui/themes';"), file).toEqual([]);
      expect(lint(file, "import { Table } from '@radix-ui/themes';"), file).toHaveLength(1);
    }
  });
});
