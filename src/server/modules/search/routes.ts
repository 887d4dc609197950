// GET /api/search?q=&scope=&limit= — ranked, grouped record search for the palette. Any signed-in
// caller may ask; each group is searched only when the caller holds that list's view permission
// (a caller with none gets empty groups, not 403).
import type { Api } from '../../http.js';
import { searchQuerySchema } from '../../../shared/schemas/search.js';
import type { SearchService } from './service.js';

export function searchRoutes(api: Api, search: SearchService) {
  api.get('/api/search', { access: 'signed-in', query: searchQuerySchema, sample: { query: { q: 'a' } } }, async (c, { query, user }) =>
    c.json(await search.search(query, user.permissions)),
  );
}
