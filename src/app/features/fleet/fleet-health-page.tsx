// Fleet Health (provider staff): over every allocated device, how many are silent, not charged,
// unused, switched off, waiting on a configuration change, or behind on firmware — and whose they
// are, customers worst first. Each count is a link to the device list filtered to exactly those
// devices (the asset list for a category, the customer's Devices tab for a customer's cell), where
// the list's bulk changes, export and tabs work on them. The counts refresh every minute.
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Card, Flex, Grid, Text } from '@radix-ui/themes';
import { ListPageFrame, RouteLink } from '../../workspace/list-page';
import { useTab } from '../../workspace/tab-context';
import { getHref } from '../../paths';
import { fleetHealthQuery } from '../../api/fleet';
import { PAGE_TITLES } from '../../../shared/messages';
import { formatShown } from '../../../shared/dates';
import { FLEET_CATEGORIES, FLEET_CATEGORY_LABELS, type FleetCategory, type FleetHealthDto, type FleetThresholds } from '../../../shared/schemas/fleet';
import { fleetListHref, thresholdText } from './fleet-format';
import './fleet.css';
import { formatCount } from '../../../shared/numbers';

export function FleetHealthPage() {
  const { setTitle } = useTab();
  useEffect(() => setTitle(PAGE_TITLES.fleetHealth), [setTitle]);
  const q = useQuery(fleetHealthQuery());
  const h = q.data;
  return (
    <ListPageFrame title={PAGE_TITLES.fleetHealth} className="lw-fleet">
      {q.isError && (
        <Text color="red" role="alert">
          Fleet health could not be loaded.
        </Text>
      )}
      {!h ? (
        !q.isError && <Text aria-busy="true">Loading…</Text>
      ) : (
        <>
          <Text size="2" color="gray" data-testid="fleet-summary">
            {formatCount(h.Affected)} of {formatCount(h.Devices)} allocated devices need attention · as of {formatShown(h.At)}
          </Text>
          <Grid columns={{ initial: '2', md: '3' }} gap="3" aria-label="Fleet health counts" role="list">
            {FLEET_CATEGORIES.map((c) => (
              <CategoryCard key={c} category={c} count={h.Counts[c]} thresholds={h.Thresholds} />
            ))}
          </Grid>
          <CustomersTable customers={h.Customers} />
        </>
      )}
    </ListPageFrame>
  );
}

function CategoryCard({ category, count, thresholds }: { category: FleetCategory; count: number; thresholds: FleetThresholds }) {
  return (
    <div role="listitem">
      <Card asChild size="2">
        <RouteLink
          href={fleetListHref(category)}
          className="lw-fleet__card"
          data-testid={`fleet-count-${category}`}
          aria-label={`${FLEET_CATEGORY_LABELS[category]}: ${count}`}
        >
          <Flex direction="column" gap="1">
            <Text weight="bold">{FLEET_CATEGORY_LABELS[category]}</Text>
            <Text size="7" weight="bold" className="lw-fleet__count" color={count ? 'red' : 'green'}>
              {formatCount(count)}
            </Text>
            <Text size="1" color="gray">
              {thresholdText(category, thresholds)}
            </Text>
          </Flex>
        </RouteLink>
      </Card>
    </div>
  );
}

function CustomersTable({ customers }: { customers: FleetHealthDto['Customers'] }) {
  if (!customers.length) return <Text>No allocated device needs attention.</Text>;
  return (
    <div className="lw-fleet__table-box">
      <table className="lw-table lw-fleet__table" aria-label="Customers, worst first">
        <thead>
          <tr>
            <th scope="col">Customer</th>
            <th scope="col">Devices</th>
            <th scope="col">Need attention</th>
            {FLEET_CATEGORIES.map((c) => (
              <th scope="col" key={c}>
                {FLEET_CATEGORY_LABELS[c]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {customers.map((c) => (
            <tr key={c.CustomerId}>
              <th scope="row">
                <RouteLink href={getHref('customerAccount', { customerId: c.CustomerId })}>{c.CustomerName || c.CustomerId}</RouteLink>
                {c.HasOverride && (
                  <Text size="1" color="gray" title="This customer has thresholds of its own">
                    {' '}
                    (own thresholds)
                  </Text>
                )}
              </th>
              <td>{formatCount(c.Devices)}</td>
              <td>{formatCount(c.Affected)}</td>
              {FLEET_CATEGORIES.map((cat) => (
                <td key={cat}>
                  {c.Counts[cat] ? (
                    <RouteLink href={fleetListHref(cat, c.CustomerId)} aria-label={`${c.CustomerName}: ${FLEET_CATEGORY_LABELS[cat]} ${c.Counts[cat]}`}>
                      {formatCount(c.Counts[cat])}
                    </RouteLink>
                  ) : (
                    <span className="lw-fleet__zero">0</span>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
