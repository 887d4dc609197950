import { defineCommand } from '../src/app/keyboard/define';
import { P } from '../src/shared/permissions';
import { getHref } from '../src/app/paths';

export default defineCommand({
  id: 'person.add',
  title: 'Add user',
  group: 'Users',
  permission: P.PersonCreate,
  keywords: ['new user', 'create person', 'add person'],
  routes: ['persons', 'personEdit'],
  run: (ctx) => ctx.openRoute(getHref('personAdd'), { beside: ctx.beside, focus: true }),
});
