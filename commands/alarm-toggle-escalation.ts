import { defineCommand } from '../src/app/keyboard/define';
import { P } from '../src/shared/permissions';
import { runAlarmAction } from '../src/app/features/alarm-reports/alarm-events';

/** Ticks or unticks 'Escalation plan followed' on the focused alarm report (sends the update). */
export default defineCommand({
  id: 'alarm.toggle-escalation',
  title: 'Toggle escalation plan followed',
  group: 'Alarm reports',
  keys: 'alt+shift+f',
  permission: P.AlarmReportAddNote,
  keywords: ['escalation', 'plan', 'followed', 'controller'],
  routes: ['alarmReport'],
  when: (ctx) => ctx.focusedTab?.route === 'alarmReport',
  disabledReason: 'Open an alarm report first.',
  run: (ctx) => runAlarmAction(ctx.focusedTab?.id, 'toggleEscalation'),
});
