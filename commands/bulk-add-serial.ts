import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES, getHref } from '../src/app/paths';
import { BULK_FOCUS_EVENT } from '../src/app/features/bulk-update/events';

export default defineCommand({
  id: 'bulk.add-serial',
  title: 'Add serial to bulk list',
  group: 'Devices',
  keys: 'b a',
  permission: ROUTES.bulkUpdate.permission,
  keywords: ['scan', 'serial number', 'bulk update', 'device'],
  // Opens Bulk Update (or goes to its tab) with the serial field focused: type or scan, Enter.
  run: (ctx) => {
    ctx.openRoute(getHref('bulkUpdate'), { beside: ctx.beside, focus: true });
    setTimeout(() => window.dispatchEvent(new Event(BULK_FOCUS_EVENT)), 0);
  },
});
