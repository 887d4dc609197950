import { defineCommand } from '../src/app/keyboard/define';
import { P } from '../src/shared/permissions';
import { runAlarmAction } from '../src/app/features/alarm-reports/alarm-events';

/** Opens the 'Add alarm report note' dialog of the focused alarm report. */
export default defineCommand({
  id: 'alarm.add-note',
  title: 'Add alarm report note',
  group: 'Alarm reports',
  keys: 'alt+n',
  permission: P.AlarmReportAddNote,
  keywords: ['note', 'annotate', 'comment'],
  routes: ['alarmReport'],
  when: (ctx) => ctx.focusedTab?.route === 'alarmReport',
  disabledReason: 'Open an alarm report first.',
  run: (ctx) => runAlarmAction(ctx.focusedTab?.id, 'addNote'),
});
