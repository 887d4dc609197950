import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES, getHref } from '../src/app/paths';

export default defineCommand({
  id: 'nav.audit',
  title: 'Go to Audit Trail',
  group: 'Navigation',
  keys: 'g l',
  permission: ROUTES.auditTrail.permission,
  keywords: ['audit', 'history', 'log', 'changes', 'who changed'],
  run: (ctx) => ctx.openRoute(getHref('auditTrail'), { beside: ctx.beside, focus: true }),
});
