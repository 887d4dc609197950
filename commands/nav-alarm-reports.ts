import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES, getHref } from '../src/app/paths';

export default defineCommand({
  id: 'nav.alarm-reports',
  title: 'Go to Alarm Reports',
  group: 'Navigation',
  keys: 'g r',
  permission: ROUTES.alarmReports.permission,
  keywords: ['alarms', 'reports'],
  run: (ctx) => ctx.openRoute(getHref('alarmReports'), { beside: ctx.beside, focus: true }),
});
