// Alarm Reports, the list tab of /alarm-reports (spec §2 "Alarm reports list", §4 defaults, §5,
// §8): export (permission, confirmation, disabled at 0), the filters with Apply and Clear Filters,
// the three charts and the response-target panel, then the virtualised list with sorting, paging,
// real row links to the detail tab, j/k/Enter (commands/list-nav.ts) and the report results view
// ('NO RESULTS' / 'Report generation failed.').
import { useEffect, useMemo, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useReactToPrint } from 'react-to-print';
import { Button, Text } from '@radix-ui/themes';
import type { FilterDef } from '../../ui/filter-bar';
import { useTabState } from '../../ui/data-table/use-tab-state';
import { ListExportButton, ListFilters, ListPageFrame, ListTable, useListPage } from '../../workspace/list-page';
import { toast } from '../../ui/toast';
import { useTab } from '../../workspace/tab-context';
import { navigateTab, openRoute } from '../../workspace/actions';
import { workspaceAtom } from '../../workspace/state';
import { findTab, focusedTab } from '../../workspace/model';
import { appStore } from '../../state/store';
import { claimsAtom, useCan } from '../../state/session';
import { useAtomValue } from 'jotai';
import { featuresQuery, isFeatureOn } from '../../api/reference';
import { ScheduleDialog } from './schedule-dialog';
import { errorMessage, errorStatus } from '../../api/query-client';
import { deviceTypesQuery } from '../../api/devices';
import {
  alarmReportDetailsQuery,
  alarmReportListQuery,
  alarmTypesQuery,
  chartFilter,
  controllersQuery,
  dateRangeOptionsQuery,
  exportAlarmReports,
  verificationCategoriesQuery,
  verificationCompletedQuery,
  verificationStartedQuery,
  verificationTypeTimeFramesQuery,
  verificationTypesQuery,
  type AlarmReportDetails,
  type AlarmReportRow,
} from '../../api/alarm-reports';
import { tierTypesQuery } from '../../api/customers';
import { getHref } from '../../paths';
import { MSG } from '../../../shared/messages';
import { P } from '../../../shared/permissions';
import { ALARM_TEXT, ALL_TIME_OPTION } from './alarm-format';
import { alarmColumns } from './alarm-columns';
import { AlarmTypesChart, Donut, type TypePoint } from './alarm-charts';
import { ResponseTargets } from './response-targets';
import { PRINT_PAGE_STYLE, PrintableReport } from './print-report';
import { registerAlarmAction, setAlarmListOrder } from './alarm-events';
import {
  DEFAULT_ALARM_FILTERS,
  DEFAULT_DATE_RANGE,
  INITIAL_ALARM_LIST,
  alarmExportFileName,
  closedRangeNote,
  dateRangeOf,
  toAlarmListFilter,
  type AlarmListState,
} from './alarm-list-model';
import './alarm-reports.css';
import { ActionButton } from '../../ui/action-button';

const STARTED_COLORS = ['#30a46c', '#ffb224', '#e5484d'];
const COMPLETED_COLORS = ['#30a46c', '#3e63dd', '#ffb224', '#e5484d'];

/** Most reports one print job holds (a month of one account's alarms; the browser renders them all at once). */
export const PRINT_BATCH_MAX = 50;

/** Below this width (a pane beside another) the charts start folded. */
const NARROW_PANE = 760;
const CHARTS_OPEN_KEY = 'alarmReports.chartsOpen';
function readChartsOpen(): boolean {
  try {
    return localStorage.getItem(CHARTS_OPEN_KEY) !== '0';
  } catch {
    return true;
  }
}

export function NoResults() {
  return (
    <div className="ar-results-empty">
      <p className="ar-results-empty__title">{ALARM_TEXT.noResultsTitle}</p>
      <p>{ALARM_TEXT.noResultsText}</p>
      <Text size="2" color="gray">
        {ALARM_TEXT.noResultsPrompt}
      </Text>
    </div>
  );
}

export function AlarmReportListPage() {
  const tab = useTab();
  const can = useCan();
  const canExport = can(P.AlarmReportExport);
  const list = useListPage({
    title: MSG.navAlarmReports,
    initial: INITIAL_ALARM_LIST,
    request: (s: AlarmListState) => toAlarmListFilter(s),
    query: alarmReportListQuery,
    rows: (d) => d.AlarmReports,
    count: (d) => d.TotalCount,
    edgeId: (r) => r.AlarmReportId,
    // A refused filter (400) says why in the server's words; anything else is the spec's failure text.
    errorText: (err) => (errorStatus(err) === 400 ? errorMessage(err) : MSG.reportGenerationFailed),
    exporter: {
      allowed: canExport,
      start: ({ page: _page, pageSize: _size, ...filter }, o) => exportAlarmReports(filter, o),
      fileName: () => alarmExportFileName(),
      // Spec §8: a 403 is the permission message; other failures 'Can not export alarm reports'.
      failMessage: MSG.cannotExportAlarmReports,
      confirm: { title: 'Export alarm reports', message: ALARM_TEXT.exportConfirm, cancelLabel: 'Cancel' },
    },
  });
  const { state, setState, request: filter } = list;

  const ranges = useQuery(dateRangeOptionsQuery()).data;
  const triggers = useQuery(alarmTypesQuery()).data;
  const vTypes = useQuery(verificationTypesQuery()).data;
  const categories = useQuery(verificationCategoriesQuery()).data;
  const controllers = useQuery(controllersQuery()).data;
  const tiers = useQuery(tierTypesQuery()).data;
  const devices = useQuery(deviceTypesQuery()).data;

  const filterDefs: FilterDef[] = useMemo(() => {
    const opts = (list: { Value: number; Name: string }[] | undefined) => (list ?? []).map((o) => ({ value: String(o.Value), label: o.Name }));
    return [
      {
        id: 'dateRange',
        type: 'dropdown',
        label: 'Alarm closed',
        placeholder: 'Last 7 days',
        options: opts(ranges).filter((o) => o.value !== String(DEFAULT_DATE_RANGE)),
      },
      { id: 'dateFrom', type: 'date', label: 'Closed from', notAfter: 'dateTo' },
      { id: 'dateTo', type: 'date', label: 'Closed to' },
      { id: 'customerAccountFullName', type: 'input', label: 'Account name', placeholder: 'Account name' },
      { id: 'personFullName', type: 'input', label: 'User name', placeholder: 'User name' },
      { id: 'tierTypes', type: 'multiselect', label: 'Tier', options: opts(tiers) },
      { id: 'alarmTypes', type: 'multiselect', label: 'Trigger', options: opts(triggers) },
      { id: 'alarmVerificationTypes', type: 'multiselect', label: 'Type', options: opts(vTypes) },
      { id: 'alarmVerificationCategoryTypes', type: 'multiselect', label: 'Category', options: opts(categories) },
      { id: 'deviceTypes', type: 'multiselect', label: 'Device', options: opts(devices) },
      { id: 'arcControllerIds', type: 'multiselect', label: 'Controller', options: (controllers ?? []).map((c) => ({ value: c.Id, label: c.FullName })) },
    ];
  }, [ranges, tiers, triggers, vTypes, categories, devices, controllers]);

  const charts = useMemo(() => chartFilter(filter), [filter]);
  const rangeOption = dateRangeOf(state.filters);
  const started = useQuery(verificationStartedQuery(charts));
  const completed = useQuery(verificationCompletedQuery(charts));
  const types = useQuery(verificationTypeTimeFramesQuery(charts));

  const typePoints: TypePoint[] = useMemo(() => {
    const t = types.data;
    if (!t) return [];
    return t.Labels.map((label) => ({
      label,
      counts: Object.fromEntries((t.TimeFrames[label] ?? []).map((e) => [e.AlarmType.Value, e.Count])),
    }));
  }, [types.data]);

  const listData = list.query.data;
  const qc = useQueryClient();
  useEffect(() => {
    if (!listData) return;
    // Next / previous report walk the whole filtered list: past this page's ends they read the
    // neighbouring page, and this list follows to that page.
    setAlarmListOrder(
      listData.AlarmReports.map((r) => r.AlarmId),
      {
        page: state.page,
        pageCount: Math.max(1, Math.ceil(listData.TotalCount / state.pageSize)),
        fetchPage: async (page) => {
          const data = await qc.fetchQuery(alarmReportListQuery({ ...filter, page }));
          setState((s) => ({ ...s, page }));
          return data.AlarmReports.map((r) => r.AlarmId);
        },
      },
    );
  }, [listData, filter, state.page, state.pageSize, qc, setState]);
  const { page: _page, pageSize: _size, ...exportFilter } = filter;
  const runExport = list.export.run;
  useEffect(() => registerAlarmAction(tab.tabId, 'export', runExport), [tab.tabId, runExport]);

  // Scheduled reports: "Schedule…" saves these filters as a schedule (feature ScheduledReports and its permission).
  const features = useQuery(featuresQuery()).data;
  const canSchedule = can(P.AlarmReportSchedule) && isFeatureOn(features, 'ScheduledReports');
  const [scheduling, setScheduling] = useState(false);
  const myEmail = useAtomValue(claimsAtom).email;
  const canScheduleRef = useRef(canSchedule);
  useEffect(() => {
    canScheduleRef.current = canSchedule;
  });
  useEffect(() => registerAlarmAction(tab.tabId, 'schedule', () => canScheduleRef.current && setScheduling(true)), [tab.tabId]);

  // The charts start expanded; a supervisor who folds them away (to see more rows, or side by side) keeps that.
  // In a narrow pane (side by side) they start folded, so the rows are in view.
  const [chartsOpen, setChartsOpenState] = useState(() => readChartsOpen());
  const [chartsChosen, setChartsChosen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const [narrow, setNarrow] = useState(false);
  useEffect(() => {
    const el = rootRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([e]) => setNarrow((e?.contentRect.width ?? 1000) < NARROW_PANE));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const showCharts = chartsChosen ? chartsOpen : chartsOpen && !narrow;
  const setChartsOpen = (open: boolean) => {
    if (open === showCharts) return; // the element following its prop, not the user
    setChartsChosen(true);
    setChartsOpenState(open);
    try {
      localStorage.setItem(CHARTS_OPEN_KEY, open ? '1' : '0');
    } catch {
      /* private mode */
    }
  };

  // Several selected reports (x, or the row checkboxes) print in one job, each from a new page.
  const [selected, setSelected] = useTabState<string[]>(tab.tabId, 'alarm-reports.selected', []);
  const selectedKeys = useMemo(() => new Set(selected), [selected]);
  const [batch, setBatch] = useState<AlarmReportDetails[] | null>(null);
  const batchRef = useRef<HTMLDivElement>(null);
  const printBatch = useReactToPrint({
    contentRef: batchRef,
    documentTitle: `Closed Alarm Reports (${batch?.length ?? 0})`,
    pageStyle: PRINT_PAGE_STYLE,
    onAfterPrint: () => setBatch(null),
    onPrintError: () => setBatch(null),
  });
  useEffect(() => {
    if (batch) printBatch();
  }, [batch, printBatch]);
  const loadBatch = useMutation({
    mutationFn: () => Promise.all(selected.slice(0, PRINT_BATCH_MAX).map((alarmId) => qc.fetchQuery(alarmReportDetailsQuery(alarmId)))),
    onSuccess: (details) => setBatch(details),
    onError: (err) => toast.error(errorMessage(err)),
  });

  // Side by side: a report opened beside (Ctrl/⌘+Enter) becomes the preview; j / k in the list make
  // it follow the active row, while the keyboard stays in the list.
  const previewTab = useRef<string | null>(null);
  const openRow = (r: AlarmReportRow, beside: boolean) => {
    openRoute(getHref('alarmReport', { alarmId: r.AlarmId }), beside ? { beside: true } : undefined);
    previewTab.current = beside ? (focusedTab(appStore.get(workspaceAtom))?.id ?? null) : null;
    if (beside) setTimeout(() => list.gridRef.current?.focus({ preventScroll: true }), 50);
  };
  const follow = (r: AlarmReportRow | undefined) => {
    const id = previewTab.current;
    if (!id || !r) return;
    const hit = findTab(appStore.get(workspaceAtom), id);
    if (!hit || hit.tab.route !== 'alarmReport') {
      previewTab.current = null;
      return;
    }
    if (hit.tab.params.alarmId !== r.AlarmId) void navigateTab(id, getHref('alarmReport', { alarmId: r.AlarmId }));
  };

  const columns = useMemo(() => alarmColumns(), []);
  const canView = can(P.AlarmReportView);

  return (
    <ListPageFrame
      title={MSG.navAlarmReports}
      className="ar-list-page"
      rootRef={rootRef}
      actions={
        <>
          {canExport && selected.length > 0 && (
            <>
              <ActionButton variant="soft" busy={loadBatch.isPending || !!batch} onClick={() => loadBatch.mutate()}>
                Print selected ({Math.min(selected.length, PRINT_BATCH_MAX)})
              </ActionButton>
              <Button variant="ghost" color="gray" onClick={() => setSelected([])}>
                Clear selection
              </Button>
            </>
          )}
          {canSchedule && (
            <Button variant="soft" onClick={() => setScheduling(true)} title="Save these filters as a scheduled report (Alt+Shift+S)">
              Schedule…
            </Button>
          )}
          <ListExportButton list={list} />
        </>
      }
    >
      <ListFilters
        list={list}
        label="Alarm report filters"
        filters={filterDefs}
        emptyValue={DEFAULT_ALARM_FILTERS}
        search={{ id: 'search', label: 'Search alarm reports', placeholder: 'Search alarm id, user, account or device serial' }}
      >
        {closedRangeNote(state.filters) && (
          <p className="ar-filter-note" role="note" data-testid="closed-range-note">
            {closedRangeNote(state.filters)}
          </p>
        )}
      </ListFilters>
      <details className="ar-charts-box" open={showCharts} onToggle={(e) => setChartsOpen(e.currentTarget.open)}>
        <summary>Charts and response targets</summary>
        <div className="ar-charts">
          <Donut
            title="Verification Started"
            slices={(started.data?.TimeFrames ?? []).map((t, i) => ({ label: t.TimeFrame, count: t.Count, color: STARTED_COLORS[i] ?? '#8d8d8d' }))}
          />
          <Donut
            title="Verification Completed"
            slices={(completed.data?.TimeFrames ?? []).map((t, i) => ({ label: t.TimeFrame, count: t.Count, color: COMPLETED_COLORS[i] ?? '#8d8d8d' }))}
          />
          <AlarmTypesChart points={typePoints} rangeOption={rangeOption} loading={rangeOption !== ALL_TIME_OPTION && types.isPending} />
          <ResponseTargets filter={charts} />
        </div>
      </details>
      <ListTable<AlarmReportRow>
        list={list}
        boxStyle={{ flex: '1 0 360px', minHeight: 360 }}
        label="Alarm reports"
        columns={columns}
        getRowKey={(r) => r.AlarmId}
        selectable={canExport}
        selectedKeys={selectedKeys}
        onSelectionChange={(keys) => setSelected([...keys])}
        emptyMessage={<NoResults />}
        canOpen={() => canView}
        onOpen={(r, { beside }) => openRow(r, beside)}
        onActiveChange={follow}
        rowHref={(r) => (canView ? getHref('alarmReport', { alarmId: r.AlarmId }) : null)}
        minWidth="1150px"
      />
      {canSchedule && <ScheduleDialog open={scheduling} onClose={() => setScheduling(false)} filters={exportFilter} defaultRecipient={myEmail} />}
      {batch && (
        <div className="ar-print-source" hidden>
          <div ref={batchRef} className="ar-print-batch">
            {batch.map((d) => (
              <PrintableReport key={d.Id} d={d} />
            ))}
          </div>
        </div>
      )}
    </ListPageFrame>
  );
}
