// The import-direction rule used by ESLint (eslint/boundaries.js): which part may import which.
import { describe, expect, it } from 'vitest';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import local, { violation } from '../../../eslint/boundaries.js';

describe('import boundaries', () => {
  it('keeps src/shared free of app, server and commands', () => {
    expect(violation('src/shared/routes.ts', '../app/paths')).toMatch(/contract/);
    expect(violation('src/shared/schemas/x.ts', '../../server/http.js')).toMatch(/contract/);
    expect(violation('src/shared/routes.ts', '../../commands/index')).toMatch(/contract/);
    expect(violation('src/shared/routes.ts', './permissions.js')).toBeNull();
  });
  it('keeps client and server apart', () => {
    expect(violation('src/app/api/http.ts', '../../server/http')).toMatch(/client code must not import server/);
    expect(violation('commands/index.ts', '../src/server/app')).toMatch(/client code/);
    expect(violation('src/server/app.ts', '../app/paths')).toMatch(/server code must not import client/);
    expect(violation('src/server/app.ts', '../../commands/index')).toMatch(/server code/);
    expect(violation('src/server/app.ts', '../shared/routes.js')).toBeNull();
    expect(violation('src/app/app.tsx', '../shared/routes')).toBeNull();
  });
  it('keeps ui generic and features independent', () => {
    expect(violation('src/app/ui/some-widget.tsx', '../workspace/tab-context')).toMatch(/generic widgets/);
    expect(violation('src/app/ui/x.tsx', '../features/persons/api')).toMatch(/generic widgets/);
    expect(violation('src/app/features/persons/a.tsx', '../profile/phone')).toMatch(/feature 'persons' must not import feature 'profile'/);
    expect(violation('src/app/features/persons/a.tsx', './api')).toBeNull();
    expect(violation('src/app/features/persons/a.tsx', '../../ui/form-field')).toBeNull();
    expect(violation('src/app/workspace/x.tsx', '../features/persons/api')).toBeNull();
  });
  it('keeps src/app below commands/: only the app root takes the registry', () => {
    expect(violation('src/app/app.tsx', '../../commands/index')).toBeNull();
    expect(violation('src/app/app.tsx', '../../commands')).toBeNull();
    expect(violation('src/app/app.tsx', '../../commands/nav-users')).toMatch(/src\/app must not import commands\/ \(commands\/nav-users\)/);
    expect(violation('src/app/palette/palette.tsx', '../../../commands/index')).toMatch(/only src\/app\/app\.tsx takes the registry/);
    expect(violation('src/app/ui/data-table/list-registry.ts', '../../../../commands/define', true)).toMatch(/src\/app must not import commands/);
    expect(violation('src/app/keyboard/key-listener.tsx', '../../../commands')).toMatch(/src\/app must not import commands/);
    expect(violation('src/app/workspace/workspace.tsx', '../keyboard/key-listener')).toBeNull();
    expect(violation('commands/nav-users.ts', '../src/app/keyboard/define')).toBeNull();
  });
  it('keeps ui free of api and state, types included', () => {
    expect(violation('src/app/ui/history-panel.tsx', '../api/admin')).toMatch(
      /generic widgets: it must not import src\/app\/api\/admin; the page loads the data/,
    );
    expect(violation('src/app/ui/x.tsx', '../state/session')).toMatch(/generic widgets.*src\/app\/state\/session/);
    expect(violation('src/app/ui/serials/x.ts', '../../state/bulk', true)).toMatch(/generic widgets/);
    expect(violation('src/app/ui/x.tsx', '../api')).toMatch(/generic widgets/);
    expect(violation('src/app/ui/x.tsx', './toast')).toBeNull();
    expect(violation('src/app/ui/x.tsx', '../../shared/schemas/admin')).toBeNull();
    expect(violation('src/app/api/export-jobs.ts', '../ui/toast')).toBeNull();
    expect(violation('src/app/features/persons/a.tsx', '../../api/admin')).toBeNull();
    expect(violation('src/app/apiary/x.ts', '../state/session')).toBeNull();
  });
  it('reaches export code only through the export pool', () => {
    expect(violation('src/server/modules/devices/routes.ts', './export.js')).toMatch(/export pool/);
    expect(violation('src/server/modules/customers/routes.ts', '../devices/export.js')).toMatch(/export pool/);
    expect(violation('src/server/app.ts', './exports/task.js')).toMatch(/export pool/);
    expect(violation('src/server/app.ts', './exports/worker.js')).toMatch(/export pool/);
    expect(violation('src/server/exports/task.ts', '../modules/devices/export.js')).toMatch(/export pool imports no module/);
    expect(violation('src/server/exports/task.ts', '../modules/admin/repo.js', true)).toMatch(/export pool imports no module/);
    expect(violation('src/server/modules/devices/exports.ts', './export.js')).toBeNull();
    expect(violation('src/server/modules/devices/exports.ts', '../../exports/registry.js')).toBeNull();
    expect(violation('src/server/modules/export-worker.ts', '../exports/worker.js')).toBeNull();
    expect(violation('src/server/modules/export-definitions.ts', '../exports/worker.js')).toMatch(/export pool/);
    expect(violation('src/server/exports/pool.ts', './task.js')).toBeNull();
    expect(violation('src/server/app.ts', './exports/pool.js')).toBeNull();
  });

  it('reaches CSV import parsing only through the pool', () => {
    expect(violation('src/server/modules/devices/routes.ts', './import-csv.js')).toMatch(/export pool/);
    expect(violation('src/server/modules/customers/allocation.ts', './import-csv.js')).toMatch(/export pool/);
    expect(violation('src/server/modules/customers/routes.ts', '../../exports/import-task.js')).toMatch(/export pool/);
    expect(violation('src/server/exports/import-task.ts', '../modules/devices/import-csv.js')).toMatch(/export pool imports no module/);
    expect(violation('src/server/modules/customers/exports.ts', './import-csv.js')).toBeNull();
    expect(violation('src/server/exports/worker.ts', './import-task.js')).toBeNull();
    expect(violation('src/server/modules/devices/routes.ts', '../../exports/import-write.js')).toMatch(/export pool/);
    expect(violation('src/server/exports/worker.ts', './import-write.js')).toBeNull();
    // Types are erased: a parser may name the result type it shares with the pool.
    expect(violation('src/server/modules/devices/import-csv.ts', '../../exports/import-task.js', true)).toBeNull();
  });
  it('ignores packages', () => {
    expect(violation('src/shared/routes.ts', 'react')).toBeNull();
  });
  it('keeps migrations to kysely and their own folder', () => {
    const m = 'src/server/db/migrations/013-alarm-stats.ts';
    expect(violation(m, '../../modules/alarm-reports/list-order.js')).toMatch(
      /a migration must not import src\/server\/modules\/alarm-reports\/list-order\.js: .* frozen copy in src\/server\/db\/migrations\/lib/,
    );
    expect(violation(m, '../counting-triggers.js')).toMatch(/a migration must not import src\/server\/db\/counting-triggers\.js/);
    expect(violation(m, '../migrations.js')).toMatch(/a migration must not import src\/server\/db\/migrations\.js/);
    expect(violation(m, '../../../shared/codes.js', true)).toMatch(/a migration must not import src\/shared\/codes\.js/);
    expect(violation('src/server/db/migrations/lib/alarm-stats.ts', '../../dialect.js')).toMatch(/a migration must not import src\/server\/db\/dialect\.js/);
    expect(violation(m, 'node:crypto')).toMatch(/a migration imports nothing but kysely \(node:crypto\)/);
    expect(violation(m, 'kysely')).toBeNull();
    expect(violation(m, './lib/alarm-stats.js')).toBeNull();
    expect(violation('src/server/db/migrations/022-alarm-list-lookups.ts', './013-alarm-stats.js')).toBeNull();
    expect(violation('src/server/db/migrations/lib/alarm-month-tops.ts', './alarm-stats.js')).toBeNull();
  });
  it('lets live code import the frozen helpers, never a migration itself', () => {
    expect(violation('src/server/db/counting-triggers.ts', './migrations/lib/counting-triggers.js')).toBeNull();
    expect(violation('src/server/modules/alarm-reports/aggregates.ts', '../../db/migrations/lib/alarm-stats.js')).toBeNull();
    expect(violation('src/server/modules/alarm-reports/aggregates.ts', '../../db/migrations/013-alarm-stats.js')).toMatch(
      /live code must not import a migration/,
    );
    // and the frozen helpers still import nothing live
    expect(violation('src/server/db/migrations/lib/alarm-stats.ts', '../../../modules/alarm-reports/aggregates.js')).toMatch(/a migration must not import/);
  });
  it('keeps live code from importing migrations, except the list', () => {
    expect(violation('src/server/modules/search/maintenance.ts', '../../db/migrations/002-search.js')).toMatch(
      /live code must not import a migration \(src\/server\/db\/migrations\/002-search\.js\): only src\/server\/db\/migrations\.ts lists them/,
    );
    expect(violation('src/server/seed/pg-bulk.ts', '../db/migrations/013-alarm-stats.js', true)).toMatch(/live code must not import a migration/);
    expect(violation('src/server/db/migrations-extra.ts', './migrations/002-search.js')).toMatch(/live code must not import a migration/);
    expect(violation('src/server/db/migrations.ts', './migrations/002-search.js')).toBeNull();
    expect(violation('src/server/db/index.ts', './migrations.js')).toBeNull();
    // Tests may run a migration on its own (a populated database before and after it).
    expect(violation('tests/integration/search.test.ts', '../../src/server/db/migrations/002-search.js')).toBeNull();
  });
});

// The rule as ESLint runs it (eslint.config.js): a small source that breaks each new boundary is
// reported at the import, whatever the form of the import.
describe('the boundaries rule in ESLint', () => {
  const linter = new Linter({ configType: 'flat', cwd: process.cwd() });
  const config = [
    { files: ['**/*.{ts,tsx}'], languageOptions: { parser: tseslint.parser }, plugins: { local }, rules: { 'local/boundaries': 'error' as const } },
  ];
  const lint = (filename: string, code: string) =>
    linter.verify(code, config, { filename: `${process.cwd()}/${filename}` }).map((m) => ({ rule: m.ruleId, line: m.line, message: m.message }));

  it('reports src/app importing commands/, except the registry in the app root', () => {
    const fixture = [
      "import { COMMANDS } from '../../../commands/index';",
      "import type { Command } from '../../../commands/nav-users';",
      "export { default } from '../../../commands/tab-close';",
      "export const later = () => import('../../../commands/index');",
    ].join('\n');
    const found = lint('src/app/palette/fixture.tsx', fixture);
    expect(found.map((f) => [f.rule, f.line])).toEqual([
      ['local/boundaries', 1],
      ['local/boundaries', 2],
      ['local/boundaries', 3],
      ['local/boundaries', 4],
    ]);
    expect(found[0]!.message).toBe(
      'src/app must not import commands/ (commands/index): only src/app/app.tsx takes the registry (commands/index.ts) and hands it on; the keyboard engine is src/app/keyboard',
    );
    expect(lint('src/app/app.tsx', "import { COMMANDS } from '../../commands/index';")).toEqual([]);
    expect(lint('src/app/app.tsx', "import navUsers from '../../commands/nav-users';")).toHaveLength(1);
  });

  it('reports a migration importing live code and live code importing a migration', () => {
    const migration = [
      "import { sql } from 'kysely';",
      "import { SORT_INDEXES } from '../../modules/alarm-reports/list-order.js';",
      "import { STATS_TABLE } from './lib/alarm-stats.js';",
      "import { createHash } from 'node:crypto';",
      "export { isPostgres } from '../dialect.js';",
    ].join('\n');
    const found = lint('src/server/db/migrations/fixture.ts', migration);
    expect(found.map((f) => [f.rule, f.line])).toEqual([
      ['local/boundaries', 2],
      ['local/boundaries', 4],
      ['local/boundaries', 5],
    ]);
    expect(found[0]!.message).toBe(
      'a migration must not import src/server/modules/alarm-reports/list-order.js: it would change when that code does; give it a frozen copy in src/server/db/migrations/lib',
    );
    const live = ["import { m002 } from '../../db/migrations/002-search.js';", "export const later = () => import('../../db/migrations/002-search.js');"].join(
      '\n',
    );
    expect(lint('src/server/modules/search/fixture.ts', live).map((f) => [f.rule, f.line])).toEqual([
      ['local/boundaries', 1],
      ['local/boundaries', 2],
    ]);
    expect(lint('src/server/db/migrations.ts', "import { m002 } from './migrations/002-search.js';")).toEqual([]);
  });

  it('reports src/app/ui importing src/app/api or src/app/state', () => {
    const fixture = [
      "import { auditListQuery } from '../api/admin';",
      "import { useCan } from '../state/session';",
      "import type { BulkDevice } from '../state/bulk';",
      "import { Table } from './table';",
      "import { MSG } from '../../shared/messages';",
    ].join('\n');
    const found = lint('src/app/ui/fixture.tsx', fixture);
    expect(found.map((f) => [f.rule, f.line])).toEqual([
      ['local/boundaries', 1],
      ['local/boundaries', 2],
      ['local/boundaries', 3],
    ]);
    expect(found[0]!.message).toBe(
      'src/app/ui holds generic widgets: it must not import src/app/api/admin; the page loads the data and passes it in through props',
    );
    // The same imports are fine for a page.
    expect(lint('src/app/features/persons/fixture.tsx', fixture.replaceAll("'../", "'../../"))).toEqual([]);
  });
});
