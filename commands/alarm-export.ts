import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES, getHref } from '../src/app/paths';
import { P } from '../src/shared/permissions';
import { requestAlarmExportOnOpen, runAlarmAction } from '../src/app/features/alarm-reports/alarm-events';

/** Exports the focused alarm report list (its filters) to .xlsx after the spec's confirmation; elsewhere opens the list first. */
export default defineCommand({
  id: 'alarm.export',
  title: 'Export alarm reports',
  group: 'Alarm reports',
  keys: 'alt+shift+x',
  permission: P.AlarmReportExport,
  keywords: ['export', 'xlsx', 'excel', 'download', 'alarms'],
  routes: ['alarmReports'],
  when: (ctx) => ctx.can(ROUTES.alarmReports.permission),
  disabledReason: 'You cannot open the alarm report list.',
  run: (ctx) => {
    if (ctx.focusedTab?.route === 'alarmReports' && runAlarmAction(ctx.focusedTab.id, 'export')) return;
    requestAlarmExportOnOpen();
    ctx.openRoute(getHref('alarmReports'), { beside: ctx.beside, focus: true });
  },
});
