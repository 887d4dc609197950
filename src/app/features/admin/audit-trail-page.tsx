// Audit Trail: every recorded change, newest first, server-paged in the shared DataTable, with
// filters by actor (name, e-mail or id), entity, action and date range, applied as typed; the
// filters and the page are in the tab's link like every list's. The Record column says what the
// record is (a serial, a name, an alarm id) and opens it; so does a row.
// Read only: the product has no way to edit or delete an entry.
import { useMemo } from 'react';
import { Flex, Select, Text } from '@radix-ui/themes';
import type { DataTableColumn } from '../../ui/data-table/types';
import type { FilterValues } from '../../ui/filter-bar';
import { ListExportButton, ListPageFrame, ListTable, RouteLink, toListFromSearch, useListPage, useLiveFilter } from '../../workspace/list-page';
import type { ListState } from '../../workspace/list-state';
import { useTab } from '../../workspace/tab-context';
import { openRoute } from '../../workspace/actions';
import { auditListQuery, exportAuditList } from '../../api/admin';
import { format } from 'date-fns';
import { formatShown, londonDayStartIso, typedIsoDay } from '../../../shared/dates';
import { DateField } from '../../ui/date-field';
import { MSG, PAGE_TITLES } from '../../../shared/messages';
import { EXPORT_LABEL } from '../../../shared/export-format';
import { AUDIT_PAGE_SIZES, describeAuditDetails, type AuditListItemDto, type AuditListRequest } from '../../../shared/schemas/admin';
import { AUDIT_ENTITIES } from './audit-entities';

type Filters = { actor: string; entity: string; action: string; from: string; to: string };
const FILTER_KEYS = ['actor', 'entity', 'action', 'from', 'to'] as const;
const DEFAULT_PAGE_SIZE: (typeof AUDIT_PAGE_SIZES)[number] = 50;
const INITIAL: ListState = { page: 1, pageSize: DEFAULT_PAGE_SIZE, filters: {} };
const ANY = 'any';

/** The filters the link holds, every field present ('' when not set). */
const filtersOf = (values: FilterValues): Filters => Object.fromEntries(FILTER_KEYS.map((k) => [k, typeof values[k] === 'string' ? values[k] : ''])) as Filters;

/** A typed day (DD/MM/YYYY) as the instant its London day starts; `to` is inclusive, so it ends a day later. */
const dayStart = (typed: string, plusDays = 0) => {
  const day = typedIsoDay(typed);
  return day ? londonDayStartIso(day, plusDays) : null;
};

function toRequest(s: ListState): AuditListRequest {
  const f = filtersOf(s.filters ?? {});
  // A page size the server does not offer (an edited link) is the default.
  const size = (AUDIT_PAGE_SIZES as readonly number[]).includes(s.pageSize) ? (s.pageSize as (typeof AUDIT_PAGE_SIZES)[number]) : DEFAULT_PAGE_SIZE;
  return {
    actor: f.actor.trim(),
    entity: f.entity,
    action: f.action.trim(),
    from: dayStart(f.from),
    to: dayStart(f.to, 1),
    pageNumber: s.page,
    pageSize: size,
  };
}

/** What the record is (its label, else its id) and, where a screen shows it, a link that opens it. */
function RecordCell({ entry }: { entry: AuditListItemDto }) {
  const text = entry.RecordLabel ?? entry.EntityId ?? '-';
  return entry.RecordHref ? (
    <RouteLink href={entry.RecordHref} title={entry.EntityId ?? undefined}>
      {text}
    </RouteLink>
  ) : (
    <span title={entry.EntityId ?? undefined}>{text}</span>
  );
}

export const auditColumns: DataTableColumn<AuditListItemDto>[] = [
  { id: 'at', header: 'When', width: '150px', cell: (e) => formatShown(e.At) },
  { id: 'actor', header: 'Actor', width: 'minmax(140px, 1fr)', cell: (e) => e.ActorName ?? (e.ActorId ? e.ActorId : 'System') },
  { id: 'action', header: 'Action', width: 'minmax(160px, 1fr)', cell: (e) => e.Action },
  { id: 'entity', header: 'Entity', width: '120px', cell: (e) => e.Entity },
  { id: 'record', header: 'Record', width: 'minmax(160px, 1fr)', cell: (e) => <RecordCell entry={e} /> },
  {
    id: 'details',
    header: 'Details',
    width: 'minmax(240px, 3fr)',
    cell: (e) => {
      const text = describeAuditDetails(e.Details);
      return <span title={text}>{text}</span>;
    },
  },
];

export function AuditTrailPage() {
  const tab = useTab();
  const list = useListPage({
    title: PAGE_TITLES.auditTrail,
    initial: INITIAL,
    request: toRequest,
    query: auditListQuery,
    rows: (d) => d.Items,
    count: (d) => d.TotalCount,
    // '/audit-trail?entity=device' filters as it reads, as '?f.entity=device' does
    linkFilters: FILTER_KEYS,
    exporter: {
      allowed: true,
      start: ({ pageNumber: _page, pageSize: _size, ...filter }, o) => exportAuditList(filter, o),
      fileName: () => `${EXPORT_LABEL.audit}_${format(new Date(), 'yyyy-MM-dd_HH-mm-ss')}.xlsx`,
      failMessage: MSG.auditExportFailed,
    },
  });
  const { setState } = list;
  const applied = useMemo(() => filtersOf(list.state.filters ?? {}), [list.state.filters]);
  // The fields filter as typed (debounced), from page 1; the link keeps only the fields set.
  const [draft, setDraft] = useLiveFilter(applied, (f) =>
    setState((s) => ({ ...s, filters: Object.fromEntries(Object.entries(f).filter(([, v]) => v !== '')), page: 1 })),
  );
  const set = (k: keyof Filters) => (value: string) => setDraft((f) => ({ ...f, [k]: value }));
  const input = (k: keyof Filters, label: string, ref?: React.Ref<HTMLInputElement>) => (
    <label style={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Text size="1">{label}</Text>
      <input ref={ref} className="lw-input" type="text" value={draft[k]} maxLength={100} onChange={(e) => set(k)(e.target.value)} />
    </label>
  );
  const dateInput = (k: 'from' | 'to', label: string) => (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Text as="label" size="1" htmlFor={`${tab.tabId}-audit-${k}`}>
        {label}
      </Text>
      <DateField id={`${tab.tabId}-audit-${k}`} label={label} value={draft[k]} onChange={set(k)} />
    </div>
  );

  return (
    <ListPageFrame title={PAGE_TITLES.auditTrail} actions={<ListExportButton list={list} />}>
      <Flex gap="3" wrap="wrap" align="end" role="search" aria-label="Audit filters" onKeyDown={toListFromSearch(list)}>
        {input('actor', 'Actor', list.searchRef)}
        <label style={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Text size="1">Entity</Text>
          <Select.Root value={draft.entity || ANY} onValueChange={(v) => set('entity')(v === ANY ? '' : v)}>
            <Select.Trigger aria-label="Entity" style={{ minWidth: '10rem' }} />
            <Select.Content>
              <Select.Item value={ANY}>Any</Select.Item>
              {AUDIT_ENTITIES.map((e) => (
                <Select.Item key={e} value={e}>
                  {e}
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
        </label>
        {input('action', 'Action')}
        {dateInput('from', 'From')}
        {dateInput('to', 'To')}
      </Flex>
      <ListTable<AuditListItemDto>
        list={list}
        label="Audit entries"
        columns={auditColumns}
        getRowKey={(e) => String(e.Id)}
        pageSizes={AUDIT_PAGE_SIZES}
        canOpen={(e) => !!e.RecordHref}
        onOpen={(e, { beside }) => {
          if (e.RecordHref) openRoute(e.RecordHref, beside ? { beside: true } : undefined);
        }}
        rowHref={(e) => e.RecordHref}
        minWidth="1000px"
      />
    </ListPageFrame>
  );
}
