import { defineCommand } from '../src/app/keyboard/define';
import { P } from '../src/shared/permissions';
import { runAlarmAction } from '../src/app/features/alarm-reports/alarm-events';

/** Saves the focused alarm report list's filters as a scheduled report (the "Schedule…" dialog). */
export default defineCommand({
  id: 'alarm.schedule',
  title: 'Schedule this alarm list as a report…',
  group: 'Alarm reports',
  keys: 'alt+shift+s',
  permission: P.AlarmReportSchedule,
  keywords: ['schedule', 'scheduled report', 'e-mail', 'daily', 'weekly', 'monthly'],
  routes: ['alarmReports'],
  when: (ctx) => ctx.focusedTab?.route === 'alarmReports',
  disabledReason: 'Open the alarm report list first.',
  run: (ctx) => runAlarmAction(ctx.focusedTab?.id, 'schedule'),
});
