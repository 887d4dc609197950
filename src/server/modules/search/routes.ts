// GET /api/search?q=&scope=&limit= — ranked, grouped record search for the palette. Any signed-in
// caller may ask; each group is searched only when the caller holds that list's view permission
// (a caller with none gets empty groups, not 403), and only by a caller of the provider tenant.
import type { Api } from '../../http/api.js';
import { searchQuerySchema } from '../../../shared/schemas/search.js';
import type { SearchService } from './service.js';
import { tenantMayUse, tenantScope } from '../../auth/tenant-scope.js';

export function searchRoutes(api: Api, search: SearchService) {
  api.get('/api/search', { access: 'signed-in', query: searchQuerySchema, sample: { query: { q: 'a' } } }, async (c, { query, user }) =>
    // A caller outside the provider tenant searches no tenant's records (tenant-scope.ts).
    c.json(
      await search.search(
        query,
        user.permissions.filter((p) => tenantMayUse(user, p)),
        tenantScope(user),
      ),
    ),
  );
}
