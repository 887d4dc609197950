// The customer view (spec document 2 §2 "Customer routes"): the page title is the customer's name,
// a tab strip Account / Subscriptions / Devices / Settings where each tab is its own route and the
// strip highlights the current one. A bad or unknown id shows 'Bad URL, please try again.'
// Each tab page renders inside <CustomerView>, which loads the details once (shared query).
import { Fragment, useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from '@radix-ui/themes';
import { useTab } from '../../workspace/tab-context';
import { PageLoading, PageMessage } from '../../workspace/page-message';
import { PageFrame } from '../../workspace/page-frame';
import { customerDetailsQuery, customerKeys, type CustomerDetails } from '../../api/customers';
import { adminKeys } from '../../api/admin';
import { useRecordLive } from '../../api/record-live';
import { mayReloadTab } from '../../workspace/actions';
import { RecordLiveBar } from '../../ui/record-live-bar';
import { errorMessage, errorStatus } from '../../api/query-client';
import { getHref, type RouteId } from '../../paths';
import { useCan } from '../../state/session';
import { ROUTES } from '../../paths';
import { MSG } from '../../../shared/messages';
import { isValidId } from '../../../shared/codes';
import { featuresQuery, isFeatureOn } from '../../api/reference';
import { MANAGEMENT_FEATURE } from '../../../shared/schemas/management-report';
import './customers.css';

const TABS: { route: RouteId; label: string }[] = [
  { route: 'customerAccount', label: 'Account' },
  { route: 'customerSubscriptions', label: 'Subscriptions' },
  { route: 'customerDevices', label: 'Devices' },
  { route: 'customerSettings', label: 'Settings' },
];

/** A click the page handles: the main button without a modifier (otherwise the browser opens the link). */
const plainClick = (e: MouseEvent) => !(e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0);

/** The customer id of the tab, its details, and the page message when there is none to show. */
export function useCustomer(): { id: string; customer?: CustomerDetails; problem: ReactNode | null } {
  const { params } = useTab();
  const id = params.customerId ?? '';
  const valid = isValidId(id);
  const details = useQuery({ ...customerDetailsQuery(id), enabled: valid });
  if (!valid) return { id, problem: <PageMessage message={MSG.badUrl} /> };
  if (details.isPending) return { id, problem: <PageLoading /> };
  if (details.isError)
    return { id, problem: <PageMessage message={[400, 404].includes(errorStatus(details.error) ?? 0) ? MSG.badUrl : errorMessage(details.error)} /> };
  return { id, customer: details.data, problem: null };
}

export function CustomerView({ current, children, actions }: { current: RouteId; children: (customer: CustomerDetails) => ReactNode; actions?: ReactNode }) {
  const tab = useTab();
  const can = useCan();
  const { setTitle } = tab;
  const { id, customer, problem } = useCustomer();
  const name = customer?.Name;
  // Others at work on this customer: a change raises the reload bar; Reload loads the customer
  // again and starts the tab's page afresh (a form shows the latest values).
  const qc = useQueryClient();
  const others = useRecordLive('customer', customer ? id : null);
  const [generation, setGeneration] = useState(0);
  const reload = async () => {
    if (!(await mayReloadTab(tab.tabId))) return;
    others.clear();
    void qc.invalidateQueries({ queryKey: adminKeys.audit() });
    await qc.refetchQueries({ queryKey: customerKeys.customer(id) });
    setGeneration((g) => g + 1);
  };
  useEffect(() => setTitle(name ?? ROUTES[current].title), [name, current, setTitle]);
  // The monthly management report of this customer (feature and export permission) and its usage
  // report (usage report permission), in this tab.
  const features = useQuery(featuresQuery());
  const canReport = isFeatureOn(features.data, MANAGEMENT_FEATURE) && can(ROUTES.customerManagementReport.permission);
  // A plain click on one of the page's links opens it in this tab; with a modifier or another
  // button the browser does what it does with a link (a new window or tab).
  const inThisTab = (href: string) => (e: MouseEvent) => {
    if (!plainClick(e)) return;
    e.preventDefault();
    tab.navigate(href);
  };
  const managementHref = getHref('customerManagementReport', { customerId: id });
  const usageHref = getHref('customerUsageReport', { customerId: id });
  if (problem || !customer) return problem;
  return (
    <PageFrame
      title={customer.Name}
      actions={
        <>
          {canReport && (
            <Button asChild variant="soft">
              <a href={managementHref} onClick={inThisTab(managementHref)}>
                Management report
              </a>
            </Button>
          )}
          {can(ROUTES.customerUsageReport.permission) && (
            <Button asChild variant="soft">
              <a href={usageHref} onClick={inThisTab(usageHref)}>
                Usage report
              </a>
            </Button>
          )}
          {actions}
        </>
      }
    >
      <RecordLiveBar changedBy={others.changedBy} present={others.present} onReload={() => void reload()} />
      <nav aria-label="Customer sections" className="cu-tabs">
        {TABS.filter((t) => can(ROUTES[t.route].permission)).map((t) => {
          const href = getHref(t.route, { customerId: id });
          const on = t.route === current;
          return (
            <a
              key={t.route}
              href={href}
              className={on ? 'cu-tabs__tab cu-tabs__tab--on' : 'cu-tabs__tab'}
              aria-current={on ? 'page' : undefined}
              onClick={on ? (e) => plainClick(e) && e.preventDefault() : inThisTab(href)}
            >
              {t.label}
            </a>
          );
        })}
      </nav>
      <div style={{ flex: '1 1 auto', minHeight: 0, overflow: 'auto' }}>
        <Fragment key={generation}>{children(customer)}</Fragment>
      </div>
    </PageFrame>
  );
}
