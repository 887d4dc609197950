// The live commands (docs/shortcuts.md): b v / b t / b e open or switch the Configure & Test tabs
// for the bulk list's selection; d r / d f run the focused device tab's refresh actions.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../../src/app/workspace/actions', () => ({ navigateTab: vi.fn(async () => true) }));

import { navigateTab } from '../../../src/app/workspace/actions';
import { createStore } from 'jotai';
import { runCommand, type CommandContext } from '../../../src/app/keyboard/define';
import type { Tab } from '../../../src/app/workspace/model';
import currentConfig from '../../../commands/bulk-manage-current-config';
import deviceTesting from '../../../commands/bulk-manage-device-testing';
import changeConfig from '../../../commands/bulk-manage-change-config';
import refreshConfig from '../../../commands/device-refresh-config';
import refreshFirmware from '../../../commands/device-refresh-firmware';
import { bulkAtom, EMPTY_BULK } from '../../../src/app/state/bulk';
import { registerDeviceActions } from '../../../src/app/features/assets/device-events';
import { getHref, type RouteId } from '../../../src/app/paths';
import { P } from '../../../src/shared/permissions';

const tab = (route: RouteId, id = 't1'): Tab =>
  ({ id, href: getHref(route, { deviceId: 'd1' }), route, params: {}, title: '', pinned: false, dirty: false, history: [] }) as unknown as Tab;

function ctxWith(opts: { route?: RouteId; selected?: number; permissions?: string[] } = {}) {
  const store = createStore();
  const ids = Array.from({ length: opts.selected ?? 0 }, (_, i) => `id-${i}`);
  store.set(bulkAtom, { ...EMPTY_BULK, list: ids, selected: ids });
  const perms = new Set(opts.permissions ?? [P.DeviceListView, P.DeviceView, P.DeviceManage]);
  return {
    store,
    focusedTab: opts.route ? tab(opts.route) : null,
    tabCount: 1,
    paneCount: 1,
    closedCount: 0,
    beside: false,
    openRoute: vi.fn(() => true),
    can: (p: string) => perms.has(p),
    workspace: {} as CommandContext['workspace'],
    ui: {} as CommandContext['ui'],
    logout: vi.fn(),
    reportError: vi.fn(),
  } as unknown as CommandContext & { openRoute: ReturnType<typeof vi.fn> };
}

beforeEach(() => vi.mocked(navigateTab).mockClear());
afterEach(() => vi.restoreAllMocks());

describe('Configure & Test commands', () => {
  it('open the tab for the selection; need a selection first', async () => {
    const none = ctxWith({ route: 'bulkUpdate', selected: 0 });
    expect(await runCommand(currentConfig, none)).toBe(false);
    expect(none.openRoute).not.toHaveBeenCalled();

    const some = ctxWith({ route: 'bulkUpdate', selected: 2 });
    expect(await runCommand(deviceTesting, some)).toBe(true);
    expect(some.openRoute).toHaveBeenCalledWith(getHref('bulkDeviceTesting'), { beside: false, focus: true });
  });

  it('inside a manage tab they switch that workspace tab instead of opening another', async () => {
    const ctx = ctxWith({ route: 'bulkCurrentConfig', selected: 1 });
    expect(await runCommand(changeConfig, ctx)).toBe(true);
    expect(navigateTab).toHaveBeenCalledWith('t1', getHref('bulkChangeConfig'));
    expect(ctx.openRoute).not.toHaveBeenCalled();
  });

  it('Change Configuration needs the manage permission', async () => {
    const ctx = ctxWith({ route: 'bulkUpdate', selected: 1, permissions: [P.DeviceListView] });
    expect(await runCommand(changeConfig, ctx)).toBe(false);
    expect(await runCommand(currentConfig, ctx)).toBe(true);
  });
});

describe('device commands', () => {
  it('run the focused device tab’s actions, and apply only on a device tab that registered them', async () => {
    const actions = { refreshConfiguration: vi.fn(), refreshFirmware: vi.fn() };
    const off = registerDeviceActions('t1', actions);
    expect(await runCommand(refreshConfig, ctxWith({ route: 'device' }))).toBe(true);
    expect(await runCommand(refreshFirmware, ctxWith({ route: 'device' }))).toBe(true);
    expect(actions.refreshConfiguration).toHaveBeenCalledTimes(1);
    expect(actions.refreshFirmware).toHaveBeenCalledTimes(1);
    expect(await runCommand(refreshConfig, ctxWith({ route: 'assets' }))).toBe(false);
    off();
    expect(await runCommand(refreshConfig, ctxWith({ route: 'device' }))).toBe(false);
    expect(actions.refreshConfiguration).toHaveBeenCalledTimes(1);
  });
});
