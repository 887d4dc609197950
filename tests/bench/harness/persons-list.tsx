// Benchmark harness (tests/bench/persons-list.bench.ts): the shared DataTable in its "all rows"
// mode over every person — GET /ps-admin/persons/get-list (the person list's own endpoint, same
// sort) fetched 100 rows at a time as the user scrolls, through the widget's onEndReached.
// Columns are the person list's own (src/app/features/persons/person-columns.tsx).
// The access token comes from the benchmark (window.__benchToken, set by an init script).
import { StrictMode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Theme } from '@radix-ui/themes';
import '@radix-ui/themes/styles.css';
import { DataTable } from '../../../src/app/ui/data-table/data-table';
import type { PersonList, PersonListItem } from '../../../src/shared/schemas/persons';
import { personColumns } from '../../../src/app/features/persons/person-columns';
import { MSG } from '../../../src/shared/messages';

declare global {
  interface Window {
    __benchToken?: string;
    __harness?: { loaded: number; total: number; requests: number; errors: number; fetchMs: number[] };
  }
}

const PAGE_SIZE = 100;
const state = (window.__harness = { loaded: 0, total: -1, requests: 0, errors: 0, fetchMs: [] as number[] });

async function fetchPage(page: number): Promise<PersonList> {
  const qs = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE), orderBy: 'UserName', desc: 'false' });
  const t = performance.now();
  state.requests++;
  const res = await fetch(`/ps-admin/persons/get-list?${qs}`, {
    headers: { Authorization: `Bearer ${window.__benchToken ?? ''}`, Accept: 'application/json' },
  });
  if (!res.ok) {
    state.errors++;
    throw new Error(`get-list page ${page}: ${res.status}`);
  }
  const body = (await res.json()) as PersonList;
  state.fetchMs.push(performance.now() - t);
  return body;
}

function AllPersons() {
  const [rows, setRows] = useState<PersonListItem[]>([]);
  const [total, setTotal] = useState(0);
  const [fetching, setFetching] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const busy = useRef(false);

  const load = useCallback((page: number) => {
    if (busy.current) return;
    busy.current = true;
    setFetching(true);
    fetchPage(page).then(
      (data) => {
        busy.current = false;
        setRows((r) => {
          const next = r.concat(data.Items);
          state.loaded = next.length;
          return next;
        });
        setTotal(data.TotalCount);
        state.total = data.TotalCount;
        setFetching(false);
      },
      (e: Error) => {
        busy.current = false;
        setError(e.message);
        setFetching(false);
      },
    );
  }, []);

  useEffect(() => load(1), [load]);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const onEndReached = useCallback(() => load(Math.floor(rowsRef.current.length / PAGE_SIZE) + 1), [load]);

  const columns = useMemo(() => personColumns(), []);

  return (
    <div style={{ height: '100vh', boxSizing: 'border-box', padding: 16, display: 'flex', flexDirection: 'column', gap: 12 }}>
      <h1 style={{ margin: 0, fontSize: 20 }}>{MSG.personsTitle} (all rows)</h1>
      <div style={{ flex: '1 1 auto', minHeight: 0, display: 'flex', flexDirection: 'column' }}>
        <DataTable<PersonListItem>
          label="Users"
          columns={columns}
          rows={rows}
          getRowKey={(p) => p.Id}
          totalCount={total}
          onEndReached={onEndReached}
          hasMore={total === 0 || rows.length < total}
          loading={fetching && rows.length === 0}
          fetching={fetching && rows.length > 0}
          error={error}
          sort={{ key: 'UserName', desc: false }}
          onSortChange={() => undefined}
          minWidth="1040px"
        />
      </div>
    </div>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Theme>
      <AllPersons />
    </Theme>
  </StrictMode>,
);
