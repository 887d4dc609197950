import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES } from '../src/app/paths';
import { bulkAtom, clearBulk } from '../src/app/state/bulk';
import { confirm } from '../src/app/ui/confirm-dialog';

export default defineCommand({
  id: 'bulk.clear',
  title: 'Clear bulk list',
  group: 'Devices',
  keys: 'b c',
  permission: ROUTES.bulkUpdate.permission,
  keywords: ['bulk update', 'clear devices bulk list', 'empty'],
  when: (ctx) => ctx.store.get(bulkAtom).list.length > 0,
  disabledReason: 'The bulk list is empty.',
  run: async (ctx) => {
    const n = ctx.store.get(bulkAtom).list.length;
    if (await confirm({ message: `Remove all ${n} devices from the bulk list?`, confirmLabel: 'Clear', danger: true })) clearBulk(ctx.store);
  },
});
