// Server search as you type: debounced, the request in flight is aborted when the text changes,
// and an answer that arrives after a newer one was asked for is thrown away.
import { useEffect, useRef, useState } from 'react';
import { searchRecords } from '../api/search';
import { messageFromError } from '../../shared/messages';
import type { SearchGroup, SearchScope } from '../../shared/schemas/search';

// Short: the request in flight is aborted when the text changes, so a burst of keys costs little,
// and keystroke-to-results stays under 100 ms (npm run bench -- palette).
export const SEARCH_DEBOUNCE_MS = 40;
export const SEARCH_LIMIT = 8;

export type RecordSearch =
  | { status: 'idle'; groups: SearchGroup[] }
  | { status: 'loading'; groups: SearchGroup[] }
  | { status: 'success'; groups: SearchGroup[]; query: string }
  | { status: 'error'; groups: SearchGroup[]; error: string };

export function useRecordSearch(text: string, scope: SearchScope, enabled: boolean): RecordSearch {
  const [result, setResult] = useState<RecordSearch>({ status: 'idle', groups: [] });
  const seq = useRef(0);
  const inflight = useRef<AbortController | null>(null);
  const q = text.trim();

  useEffect(() => {
    const my = ++seq.current;
    inflight.current?.abort();
    inflight.current = null;
    if (!enabled || !q) {
      setResult({ status: 'idle', groups: [] });
      return;
    }
    // Keep the previous hits on screen while the next answer is on its way.
    setResult((r) => ({ status: 'loading', groups: r.groups }));
    const timer = setTimeout(() => {
      const ctrl = new AbortController();
      inflight.current = ctrl;
      searchRecords({ q, scope, limit: SEARCH_LIMIT }, ctrl.signal).then(
        (data) => {
          if (my !== seq.current) return; // superseded
          setResult({ status: 'success', groups: (data?.groups ?? []).filter((g) => g.hits.length > 0), query: q });
        },
        (err: unknown) => {
          if (my !== seq.current || ctrl.signal.aborted) return;
          setResult({ status: 'error', groups: [], error: messageFromError((err as { data?: unknown } | null)?.data) });
        },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [q, scope, enabled]);

  useEffect(() => () => inflight.current?.abort(), []);
  return result;
}
