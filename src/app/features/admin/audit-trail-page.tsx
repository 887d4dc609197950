// Audit Trail: every recorded change, newest first, server-paged in the shared DataTable, with
// filters by actor (name, e-mail or id), entity, action and date range; a row opens its record.
// Read only: the product has no way to edit or delete an entry.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Heading, Select, Text } from '@radix-ui/themes';
import { DataTable } from '../../ui/data-table/data-table';
import type { DataTableColumn } from '../../ui/data-table/types';
import { useDebouncedValue } from '../../ui/data-table/use-debounced-value';
import { useTabState } from '../../ui/data-table/use-tab-state';
import { listQueryProps, pagingProps } from '../../ui/data-table/list-props';
import { useTab } from '../../workspace/tab-context';
import { openRoute } from '../../workspace/actions';
import { errorMessage } from '../../api/query-client';
import { auditListQuery, exportAuditList } from '../../api/admin';
import { ExportProgressBar } from '../../ui/export-progress';
import { useExportJob } from '../../api/export-jobs';
import { format } from 'date-fns';
import { formatShown, londonDayStartIso, typedIsoDay } from '../../../shared/dates';
import { DateField } from '../../ui/date-field';
import { MSG, PAGE_TITLES } from '../../../shared/messages';
import { EXPORT_LABEL } from '../../../shared/export-format';
import { AUDIT_PAGE_SIZES, describeAuditDetails, type AuditEntryDto, type AuditListRequest } from '../../../shared/schemas/admin';
import { AUDIT_ENTITIES, auditRecordHref } from './audit-links';

type Filters = { actor: string; entity: string; action: string; from: string; to: string };
type ListState = { page: number; pageSize: number; filters: Filters };
const INITIAL: ListState = { page: 1, pageSize: 50, filters: { actor: '', entity: '', action: '', from: '', to: '' } };
const ANY = 'any';
const formatAt = (iso: string) => formatShown(iso);

/** A typed day (DD/MM/YYYY) as the instant its London day starts; `to` is inclusive, so it ends a day later. */
const dayStart = (typed: string, plusDays = 0) => {
  const day = typedIsoDay(typed);
  return day ? londonDayStartIso(day, plusDays) : null;
};

const columns: DataTableColumn<AuditEntryDto>[] = [
  { id: 'at', header: 'When', width: '150px', cell: (e) => formatAt(e.At) },
  { id: 'actor', header: 'Actor', width: 'minmax(140px, 1fr)', cell: (e) => e.ActorName ?? (e.ActorId ? e.ActorId : 'System') },
  { id: 'action', header: 'Action', width: 'minmax(160px, 1fr)', cell: (e) => e.Action },
  { id: 'entity', header: 'Entity', width: '120px', cell: (e) => e.Entity },
  {
    id: 'record',
    header: 'Record',
    width: 'minmax(160px, 1fr)',
    cell: (e) => {
      const link = auditRecordHref(e.Entity, e.EntityId);
      return link ? (
        <a
          href={link.href}
          onClick={(ev) => {
            ev.preventDefault();
            ev.stopPropagation();
            openRoute(link.href);
          }}
        >
          {e.EntityId}
        </a>
      ) : (
        (e.EntityId ?? '-')
      );
    },
  },
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
  const { setTitle } = tab;
  useEffect(() => setTitle(PAGE_TITLES.auditTrail), [setTitle]);
  const [state, setState] = useTabState<ListState>(tab.tabId, 'admin.audit', INITIAL);
  const [draft, setDraft] = useState(state.filters);
  const debounced = useDebouncedValue(draft, 300);
  useEffect(() => {
    setState((s) => (JSON.stringify(s.filters) === JSON.stringify(debounced) ? s : { ...s, filters: debounced, page: 1 }));
  }, [debounced, setState]);

  const req: AuditListRequest = useMemo(
    () => ({
      actor: state.filters.actor.trim(),
      entity: state.filters.entity,
      action: state.filters.action.trim(),
      from: dayStart(state.filters.from),
      to: dayStart(state.filters.to, 1),
      pageNumber: state.page,
      pageSize: state.pageSize as (typeof AUDIT_PAGE_SIZES)[number],
    }),
    [state],
  );
  const list = useQuery(auditListQuery(req));
  const { pageNumber: _page, pageSize: _size, ...exportFilter } = req;
  const exporter = useExportJob(
    (o) => exportAuditList(exportFilter, o),
    () => `${EXPORT_LABEL.audit}_${format(new Date(), 'yyyy-MM-dd_HH-mm-ss')}.xlsx`,
    MSG.auditExportFailed,
  );
  const total = list.data?.TotalCount ?? 0;
  const gridRef = useRef<HTMLDivElement>(null);
  const firstRef = useRef<HTMLInputElement>(null);
  const set = (k: keyof Filters) => (value: string) => setDraft((f) => ({ ...f, [k]: value }));
  const input = (k: keyof Filters, label: string, type = 'text', ref?: React.Ref<HTMLInputElement>) => (
    <label style={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Text size="1">{label}</Text>
      <input ref={ref} className="lw-input" type={type} value={draft[k]} maxLength={100} onChange={(e) => set(k)(e.target.value)} />
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
    <Flex direction="column" gap="3" p="4" style={{ height: '100%', minHeight: 0, boxSizing: 'border-box' }}>
      <Flex align="center" gap="3" wrap="wrap">
        <Heading as="h1" size="5">
          {PAGE_TITLES.auditTrail}
        </Heading>
        <ExportProgressBar job={exporter} />
        <Button variant="soft" disabled={total === 0 || exporter.isPending} loading={exporter.isPending} onClick={() => exporter.mutate()}>
          Export
        </Button>
      </Flex>
      <Flex gap="3" wrap="wrap" align="end" role="search" aria-label="Audit filters">
        {input('actor', 'Actor', 'text', firstRef)}
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
      <div style={{ flex: '1 1 auto', minHeight: 0, display: 'flex', flexDirection: 'column' }}>
        <DataTable<AuditEntryDto>
          label="Audit entries"
          columns={columns}
          rows={list.data?.Items ?? []}
          getRowKey={(e) => String(e.Id)}
          totalCount={list.data?.TotalCount ?? 0}
          {...pagingProps(state, setState)}
          {...listQueryProps(list, errorMessage)}
          pageSizes={AUDIT_PAGE_SIZES}
          canOpen={(e) => !!auditRecordHref(e.Entity, e.EntityId)}
          onOpen={(e, { beside }) => {
            const link = auditRecordHref(e.Entity, e.EntityId);
            if (link) openRoute(link.href, beside ? { beside: true } : undefined);
          }}
          rowHref={(e) => auditRecordHref(e.Entity, e.EntityId)?.href}
          filterRef={firstRef}
          gridRef={gridRef}
          keyboardActive={tab.active}
          minWidth="1000px"
        />
      </div>
    </Flex>
  );
}
