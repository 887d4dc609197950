// The usage report tab: the customer's rows as the user reads them (person, device, the figures,
// last seen in UK time), the usage rate against the month before, the month picker asking for the
// month chosen, and the answers for an unknown customer and a link without a customer id.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

vi.mock('../../../src/app/api/http', () => ({ http: vi.fn() }));

import { http } from '../../../src/app/api/http';
import { UsageReportPage } from '../../../src/app/features/usage/usage-report-page';
import { USAGE_COLUMNS } from '../../../src/app/features/usage/usage-report-print';
import { MSG, USAGE_TEXT } from '../../../src/shared/messages';
import { P } from '../../../src/shared/permissions';
import { defaultMonth, shiftMonth } from '../../../src/shared/management-report';
import type { UsageReport } from '../../../src/shared/schemas/usage-report';
import { httpError, renderPage } from '../persons/helpers';
import { slowMachine } from '../ui/slow-machine';

slowMachine();

const httpMock = vi.mocked(http);
const CUSTOMER = '6d1c2a10-0000-4000-8000-00000000c001';
type Opts = { query?: Record<string, unknown> };

const report = (month: string): UsageReport => ({
  CustomerId: CUSTOMER,
  CustomerName: 'Alpha Care',
  Month: month,
  PreviousMonth: shiftMonth(month, -1),
  Days: 31,
  PreviousDays: 30,
  Devices: 2,
  UsedDeviceDays: 6,
  PreviousUsedDeviceDays: 2,
  UsageRate: 9.7,
  PreviousUsageRate: 3.3,
  RateChange: 6.4,
  Totals: { DaysUsed: 6, CheckIns: 5, Alarms: 2, LowBatteryDays: 2 },
  OtherAlarms: 1,
  Rows: [
    {
      DeviceId: 'd1',
      Serial: 'UR-1',
      DeviceType: 'Twig One',
      PersonId: 'p1',
      PersonName: 'Ann Able',
      DaysUsed: 5,
      CheckIns: 4,
      Alarms: 2,
      LowBatteryDays: 2,
      LastSeen: '2026-10-31T23:59:00.000Z',
    },
    {
      DeviceId: 'd2',
      Serial: 'UR-2',
      DeviceType: 'Twig One',
      PersonId: null,
      PersonName: null,
      DaysUsed: 1,
      CheckIns: 1,
      Alarms: 0,
      LowBatteryDays: 0,
      LastSeen: null,
    },
  ],
});

beforeEach(() => {
  httpMock.mockReset();
  httpMock.mockImplementation(async (path: string, opts?: Opts) => {
    if (path === '/ps-admin/customers/usage-report') return report(String(opts!.query!.month));
    throw new Error(`unexpected ${path}`);
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const open = (customerId = CUSTOMER) =>
  renderPage(<UsageReportPage />, { permissions: [P.UsageReportView], route: 'customerUsageReport', params: { customerId } });
const asked = () => httpMock.mock.calls.filter(([p]) => p === '/ps-admin/customers/usage-report').map(([, o]) => (o as Opts).query);

describe('Usage report tab', () => {
  it("opens on last month with the customer's rows, the totals and the rate against the month before", async () => {
    const { tab } = open();
    await screen.findByRole('heading', { level: 1, name: 'Usage Report: Alpha Care' });
    expect(asked()).toEqual([{ customerId: CUSTOMER, month: defaultMonth(Date.now()) }]);
    expect(tab.setTitle).toHaveBeenLastCalledWith('Usage Report: Alpha Care');
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([...USAGE_COLUMNS]);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent))).toEqual([
      ['Ann Able', 'UR-1 · Twig One', '5', '4', '2', '2', '31/10/2026 23:59'],
      [USAGE_TEXT.notAssigned, 'UR-2 · Twig One', '1', '1', '0', '0', '-'],
      ['Total', '6', '5', '2', '2', ''],
    ]);
    expect(screen.getByTestId('usage-rate')).toHaveTextContent('9.7 %');
    expect(screen.getByTestId('usage-rate-previous')).toHaveTextContent('3.3 %');
    expect(screen.getByTestId('usage-rate-change')).toHaveTextContent('+6.4 pts');
    expect(screen.getByText(USAGE_TEXT.otherAlarms(1))).toBeInTheDocument();
  });

  it('the previous-month button asks for the month before; next is off on the current month', async () => {
    open();
    await screen.findByRole('heading', { level: 1, name: 'Usage Report: Alpha Care' });
    const last = defaultMonth(Date.now());
    await userEvent.click(screen.getByRole('button', { name: 'Previous month' }));
    await waitFor(() => expect(asked().at(-1)).toEqual({ customerId: CUSTOMER, month: shiftMonth(last, -1) }));
    await userEvent.click(screen.getByRole('button', { name: 'Next month' }));
    await userEvent.click(screen.getByRole('button', { name: 'Next month' }));
    await waitFor(() => expect(asked().at(-1)?.month).toBe(shiftMonth(last, 1)));
    // off, and still holding the focus (aria-disabled while focused, ActionButton): pressing it asks for nothing
    const next = screen.getByRole('button', { name: 'Next month' });
    expect(next).toHaveFocus();
    expect(next).toHaveAttribute('aria-disabled', 'true');
    const before = asked().length;
    await userEvent.click(next);
    await userEvent.keyboard('{Enter}');
    expect(asked()).toHaveLength(before);
    expect(asked().at(-1)?.month).toBe(shiftMonth(last, 1));
  });

  it('an unknown customer (or one out of reach) and a link without a customer id say the link is not valid', async () => {
    httpMock.mockImplementation(async () => {
      throw httpError(404, USAGE_TEXT.customerNotFound, 'not_found');
    });
    open();
    expect(await screen.findByText(MSG.badUrl)).toBeInTheDocument();
    cleanup();
    httpMock.mockClear();
    open('not-an-id');
    expect(await screen.findByText(MSG.badUrl)).toBeInTheDocument();
    expect(asked()).toEqual([]);
  });
});
