// The usage report as one printable document (A4): shown on screen in its tab and copied by
// react-to-print into the print frame (ui/print.ts, the management report's way): a named page
// whose @page rules carry the running header (customer and month on continuation pages, 'Page N of
// M' on every page) and the footer. Top to bottom: the customer and month, the usage rate against
// the month before, then one row per device with its person.
import type { Ref } from 'react';
import { MonthlyPrint } from '../../ui/monthly-print';
import { monthLabel } from '../../../shared/management-report';
import { formatShown } from '../../../shared/dates';
import { formatCount } from '../../../shared/numbers';
import { USAGE_TEXT } from '../../../shared/messages';
import { rateChangeText, rateText } from '../../../shared/usage-report';
import type { UsageReport } from '../../../shared/schemas/usage-report';

/** The table's columns, left to right (the DOM and e2e tests read them by these names). */
export const USAGE_COLUMNS = ['Person', 'Device', 'Days used', 'Check-ins', 'Alarms raised', 'Low-battery days', 'Last seen'] as const;

export function PrintableUsageReport({ r, ref }: { r: UsageReport; ref?: Ref<HTMLDivElement> }) {
  const month = monthLabel(r.Month);
  const before = monthLabel(r.PreviousMonth);
  return (
    <MonthlyPrint
      ref={ref}
      title={USAGE_TEXT.title}
      customerName={r.CustomerName}
      month={r.Month}
      pageId={`usage-${r.CustomerId}`}
      block="ur-print"
      testId="usage-report"
      meta={`${month} · ${formatCount(r.Devices)} allocated device${r.Devices === 1 ? '' : 's'} · ${formatCount(r.Days)} day${r.Days === 1 ? '' : 's'} counted`}
    >
      <section className="ur-rate" aria-label="Usage rate">
        <dl>
          <div>
            <dt>Usage rate, {month}</dt>
            <dd data-testid="usage-rate">{rateText(r.UsageRate)}</dd>
          </div>
          <div>
            <dt>{before}</dt>
            <dd data-testid="usage-rate-previous">{rateText(r.PreviousUsageRate)}</dd>
          </div>
          <div>
            <dt>Change</dt>
            <dd data-testid="usage-rate-change">{rateChangeText(r.RateChange)}</dd>
          </div>
        </dl>
        <p className="ur-note">
          {formatCount(r.UsedDeviceDays)} used device-days of {formatCount(r.Devices * r.Days)} possible ({before}: {formatCount(r.PreviousUsedDeviceDays)} of{' '}
          {formatCount(r.Devices * r.PreviousDays)}). A device is used on a day it checked in, was switched on or raised an alarm.
        </p>
      </section>
      {r.Rows.length === 0 ? (
        <p role="status">{USAGE_TEXT.noDevices}</p>
      ) : (
        <table className="ur-table" aria-label={`Usage by device, ${month}`}>
          <thead>
            <tr>
              {USAGE_COLUMNS.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {r.Rows.map((row) => (
              <tr key={row.DeviceId}>
                <th scope="row">{row.PersonName ?? USAGE_TEXT.notAssigned}</th>
                <td>
                  {row.Serial}
                  <span className="ur-type"> · {row.DeviceType}</span>
                </td>
                <td className="ur-num">{formatCount(row.DaysUsed)}</td>
                <td className="ur-num">{formatCount(row.CheckIns)}</td>
                <td className="ur-num">{formatCount(row.Alarms)}</td>
                <td className="ur-num">{formatCount(row.LowBatteryDays)}</td>
                <td>{formatShown(row.LastSeen)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={2}>
                Total
              </th>
              <td className="ur-num">{formatCount(r.Totals.DaysUsed)}</td>
              <td className="ur-num">{formatCount(r.Totals.CheckIns)}</td>
              <td className="ur-num">{formatCount(r.Totals.Alarms)}</td>
              <td className="ur-num">{formatCount(r.Totals.LowBatteryDays)}</td>
              <td />
            </tr>
          </tfoot>
        </table>
      )}
      {r.OtherAlarms > 0 && <p className="ur-note">{USAGE_TEXT.otherAlarms(r.OtherAlarms)}</p>}
    </MonthlyPrint>
  );
}
