import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES } from '../src/app/paths';
import { paletteOpenScopeAtom, paletteOpenAtom } from '../src/app/palette/state';

/** The palette in its Customers scope ($): type a reference or a name, Enter opens the customer. */
export default defineCommand({
  id: 'customer.open',
  title: 'Open customer by reference or name',
  group: 'Customers',
  keys: 'c o',
  permission: ROUTES.customerAccount.permission,
  keywords: ['find customer', 'customer', 'account', 'reference'],
  run: (ctx) => {
    ctx.store.set(paletteOpenScopeAtom, '$');
    ctx.store.set(paletteOpenAtom, true);
  },
});
