// The import-direction rule used by ESLint (eslint/boundaries.js): which part may import which.
import { describe, expect, it } from 'vitest';
import { violation } from '../../../eslint/boundaries.js';

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
  it('reaches export code only through the export pool', () => {
    expect(violation('src/server/modules/devices/routes.ts', './export.js')).toMatch(/export pool/);
    expect(violation('src/server/modules/customers/routes.ts', '../devices/export.js')).toMatch(/export pool/);
    expect(violation('src/server/app.ts', './exports/task.js')).toMatch(/export pool/);
    expect(violation('src/server/app.ts', './exports/worker.js')).toMatch(/export pool/);
    expect(violation('src/server/exports/task.ts', '../modules/devices/export.js')).toBeNull();
    expect(violation('src/server/exports/pool.ts', './task.js')).toBeNull();
    expect(violation('src/server/app.ts', './exports/pool.js')).toBeNull();
  });

  it('reaches CSV import parsing only through the pool', () => {
    expect(violation('src/server/modules/devices/routes.ts', './import-csv.js')).toMatch(/export pool/);
    expect(violation('src/server/modules/customers/allocation.ts', './import-csv.js')).toMatch(/export pool/);
    expect(violation('src/server/modules/customers/routes.ts', '../../exports/import-task.js')).toMatch(/export pool/);
    expect(violation('src/server/exports/import-task.ts', '../modules/devices/import-csv.js')).toBeNull();
    expect(violation('src/server/exports/worker.ts', './import-task.js')).toBeNull();
    expect(violation('src/server/modules/devices/routes.ts', '../../exports/import-write.js')).toMatch(/export pool/);
    expect(violation('src/server/exports/worker.ts', './import-write.js')).toBeNull();
    // Types are erased: a parser may name the result type it shares with the pool.
    expect(violation('src/server/modules/devices/import-csv.ts', '../../exports/import-task.js', true)).toBeNull();
  });
  it('ignores packages', () => {
    expect(violation('src/shared/routes.ts', 'react')).toBeNull();
  });
});
