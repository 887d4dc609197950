import { defineCommand } from '../src/app/keyboard/define';

// Keys inside lists (DataTables): the list holding keyboard focus, else the focused tab's list
// (ctx.list, found by src/app/ui/data-table/list-registry.ts). Arrow keys, Home/End and
// PageUp/PageDown stay with the grid itself (WAI-ARIA grid navigation), like a tab strip's arrows.
// Six small commands of one kind, so they share this file.
const noList = 'No list here.';

const listNav = [
  defineCommand({
    id: 'list.next',
    title: 'Next row',
    group: 'Lists',
    keys: 'j',
    palette: false,
    repeat: true,
    scope: 'list',
    when: (ctx) => !!ctx.list,
    disabledReason: noList,
    run: (ctx) => ctx.list!.move(1),
  }),
  defineCommand({
    id: 'list.prev',
    title: 'Previous row',
    group: 'Lists',
    keys: 'k',
    palette: false,
    repeat: true,
    scope: 'list',
    when: (ctx) => !!ctx.list,
    disabledReason: noList,
    run: (ctx) => ctx.list!.move(-1),
  }),
  defineCommand({
    id: 'list.open',
    title: 'Open row',
    group: 'Lists',
    keys: 'enter',
    palette: false,
    scope: 'list',
    // Only on the grid itself: Enter on a header button sorts, Enter elsewhere activates controls.
    when: (ctx) => !!ctx.list?.onGrid && ctx.list.canOpen(),
    disabledReason: 'The list does not have the focus, or the row cannot be opened.',
    run: (ctx) => ctx.list!.open(false),
  }),
  defineCommand({
    id: 'list.open-beside',
    title: 'Open row in the other pane',
    group: 'Lists',
    keys: 'mod+enter',
    palette: false,
    scope: 'list',
    when: (ctx) => !!ctx.list?.onGrid && ctx.list.canOpen(),
    disabledReason: 'The list does not have the focus, or the row cannot be opened.',
    run: (ctx) => ctx.list!.open(true),
  }),
  defineCommand({
    id: 'list.select',
    title: 'Select row',
    group: 'Lists',
    keys: 'x',
    palette: false,
    scope: 'list',
    when: (ctx) => !!ctx.list?.selectable(),
    disabledReason: 'This list has no selection.',
    run: (ctx) => ctx.list!.toggleSelect(),
  }),
  defineCommand({
    id: 'list.filter',
    title: 'Focus the list filter',
    group: 'Lists',
    keys: '/',
    palette: false,
    scope: 'list',
    when: (ctx) => !!ctx.list?.hasFilter(),
    disabledReason: 'This list has no filter.',
    run: (ctx) => ctx.list!.focusFilter(),
  }),
];

export default listNav;
