import { defineCommand } from '../src/app/keyboard/define';
import { P } from '../src/shared/permissions';
import { runAlarmAction } from '../src/app/features/alarm-reports/alarm-events';

/** Prints the focused Closed Alarm Report (Export to PDF): the browser's print dialog with the printable report. */
export default defineCommand({
  id: 'alarm.print',
  title: 'Print Closed Alarm Report (Export to PDF)',
  group: 'Alarm reports',
  keys: 'mod+p',
  permission: P.AlarmReportExport,
  keywords: ['print', 'pdf', 'export', 'closed alarm report'],
  routes: ['alarmReport'],
  // Elsewhere Ctrl/⌘+P stays the browser's own print.
  when: (ctx) => ctx.focusedTab?.route === 'alarmReport',
  disabledReason: 'Open an alarm report first.',
  run: (ctx) => runAlarmAction(ctx.focusedTab?.id, 'print'),
});
