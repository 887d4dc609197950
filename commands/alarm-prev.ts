import { defineCommand } from '../src/app/keyboard/define';
import { P } from '../src/shared/permissions';
import { runAlarmAction } from '../src/app/features/alarm-reports/alarm-events';

/** The focused report tab shows the previous report of the alarm report list. */
export default defineCommand({
  id: 'alarm.prev',
  title: 'Previous alarm report',
  group: 'Alarm reports',
  keys: 'alt+shift+k',
  permission: P.AlarmReportView,
  keywords: ['previous', 'report', 'triage'],
  routes: ['alarmReport'],
  when: (ctx) => ctx.focusedTab?.route === 'alarmReport',
  disabledReason: 'Open an alarm report first.',
  run: (ctx) => runAlarmAction(ctx.focusedTab?.id, 'prev'),
});
