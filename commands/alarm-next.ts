import { defineCommand } from '../src/app/keyboard/define';
import { P } from '../src/shared/permissions';
import { runAlarmAction } from '../src/app/features/alarm-reports/alarm-events';

/** The focused report tab shows the next report of the alarm report list (its current page, in its order). */
export default defineCommand({
  id: 'alarm.next',
  title: 'Next alarm report',
  group: 'Alarm reports',
  keys: 'alt+shift+j',
  permission: P.AlarmReportView,
  keywords: ['next', 'report', 'triage'],
  routes: ['alarmReport'],
  when: (ctx) => ctx.focusedTab?.route === 'alarmReport',
  disabledReason: 'Open an alarm report first.',
  run: (ctx) => runAlarmAction(ctx.focusedTab?.id, 'next'),
});
