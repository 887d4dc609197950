// The fleet area's scheduled report, registered with the scheduler (lib/scheduled-reports.ts): the
// monthly usage report of the schedule's customer, for the last full London month before the due
// date, as the .xlsx the page exports (built through the export pool, within the recipients'
// tenant scope). Behind the feature ScheduledUsageReport: off (or absent), a schedule of this kind
// cannot be saved and a due run fails without sending anything.
import { registerScheduledReport } from '../../lib/scheduled-reports.js';
import type { DB } from '../../db/index.js';
import { XLSX_TYPE, exportFileName } from '../../exports/routes.js';
import { managementPeriod } from '../../../shared/schedules.js';
import { monthLabel } from '../../../shared/management-report.js';
import { rateText } from '../../../shared/usage-report.js';
import { USAGE_TEXT } from '../../../shared/messages.js';
import { USAGE_SCHEDULE_FEATURE } from '../../../shared/schemas/usage-report.js';
import { usageReport } from './usage-report.js';
import { USAGE_EXPORT_LABEL } from './usage-export.js';

/** Whether the feature ScheduledUsageReport is on (an absent feature is off). */
export async function usageScheduleOn(db: DB): Promise<boolean> {
  const row = await db.selectFrom('features').select('isEnabled').where('name', '=', USAGE_SCHEDULE_FEATURE).executeTakeFirst();
  return row?.isEnabled === 1;
}

registerScheduledReport('usageReport', {
  async build({ db, exports, schedule: s, dueAt, now, scope }) {
    if (!(await usageScheduleOn(db))) throw new Error(`not sent: ${USAGE_TEXT.scheduleOff}`);
    if (!s.customerId) throw new Error(USAGE_TEXT.scheduleCustomer);
    const { month } = managementPeriod(dueAt);
    const report = await usageReport(db, scope, { customerId: s.customerId, month, now });
    if (!report) throw new Error(USAGE_TEXT.customerNotFound);
    const started = await exports.start(`schedule:${s.id}`, { kind: 'usageReport', customerId: s.customerId, month, now: now.toISOString(), scope });
    const bytes = started.total > 0 ? new Uint8Array(await new Response(started.body).arrayBuffer()) : null;
    if (!bytes) await started.body.cancel();
    const label = monthLabel(month);
    const rate = `usage rate ${rateText(report.UsageRate)} (${monthLabel(report.PreviousMonth)}: ${rateText(report.PreviousUsageRate)})`;
    return {
      file: bytes ? { fileName: exportFileName(USAGE_EXPORT_LABEL, dueAt), contentType: XLSX_TYPE, content: bytes } : null,
      rows: report.Devices,
      subject: `Scheduled report: ${s.name} (${report.CustomerName}, ${label})`,
      text: bytes
        ? `The attached file is the usage report of ${report.CustomerName} for ${label}: ${report.Devices} device${report.Devices === 1 ? '' : 's'}, ${rate}.`
        : `${report.CustomerName} had no allocated devices in the usage report for ${label}, so no file is attached.`,
    };
  },
  available: usageScheduleOn,
});
