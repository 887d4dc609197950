import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES, getHref } from '../src/app/paths';

export default defineCommand({
  id: 'nav.scheduled-reports',
  title: 'Go to Scheduled Reports',
  group: 'Navigation',
  keys: 'g h',
  permission: ROUTES.scheduledReports.permission,
  keywords: ['scheduled reports', 'schedules', 'e-mail reports', 'daily', 'weekly', 'monthly'],
  run: (ctx) => ctx.openRoute(getHref('scheduledReports'), { beside: ctx.beside, focus: true }),
});
