// The palette search over any database, with every module's provider registered as createApp does.
import { createSearch } from '../../src/server/app.js';
import type { DB } from '../../src/server/db/index.js';
import type { SearchInput } from '../../src/server/modules/search/service.js';
import { ALL_TENANTS, type TenantScope } from '../../src/server/auth/tenant-scope.js';

export const search = (db: DB, input: SearchInput, permissions: readonly string[], tenant: TenantScope = ALL_TENANTS) =>
  createSearch(db).search(input, permissions, tenant);
