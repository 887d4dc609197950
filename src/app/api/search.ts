// The palette's record search (GET /api/search). Not a query: the palette debounces, aborts the
// request in flight and drops stale answers itself (palette/use-record-search.ts).
import { http } from './http';
import type { SearchResponse, SearchScope } from '../../shared/schemas/search';

/** GET /api/search?q=&scope=&limit= → groups of ranked hits, each with the client route to open. */
export const searchRecords = (query: { q: string; scope: SearchScope; limit: number }, signal?: AbortSignal) =>
  http<SearchResponse>('/api/search', { query, signal });
