// The Audit Trail: its filters and page live in the tab's link like every list's (a remount or a
// reload reads them back, an older link puts them back), and the Record column says what the
// record is with a link that opens it in a workspace tab.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

vi.mock('../../../src/app/api/http', () => ({ http: vi.fn() }));

import { http } from '../../../src/app/api/http';
import { appStore } from '../../../src/app/state/store';
import { workspaceAtom } from '../../../src/app/workspace/state';
import * as M from '../../../src/app/workspace/model';
import { resolveHref } from '../../../src/app/workspace/url';
import { setTabSearch } from '../../../src/app/workspace/actions';
import { AuditTrailPage } from '../../../src/app/features/admin/audit-trail-page';
import type { AuditListDto, AuditListItemDto, AuditListRequest } from '../../../src/shared/schemas/admin';
import { stubGridLayout } from '../ui/layout';
import { slowMachine } from '../ui/slow-machine';
import { renderInWorkspaceTab } from '../workspace/helpers';
import { stubResizeObserver } from '../../helpers/resize-observer';

slowMachine();
// Radix's scroll area (the Entity select) watches its size; jsdom has no ResizeObserver.
beforeAll(stubResizeObserver);

const httpMock = vi.mocked(http);
const DEVICE_ID = 'dddddddd-0000-4000-8000-00000000000a';
const REPORT_ID = 'eeeeeeee-0000-4000-8000-00000000000e';

const entry = (over: Partial<AuditListItemDto>): AuditListItemDto => ({
  Id: 1,
  At: '2026-11-20T10:00:00.000Z',
  ActorId: null,
  ActorName: 'Alex Admin',
  Action: 'device.update',
  Entity: 'device',
  EntityId: DEVICE_ID,
  Details: {},
  RecordLabel: null,
  RecordHref: null,
  ...over,
});
const ENTRIES: AuditListItemDto[] = [
  entry({ Id: 1, RecordLabel: 'SG750-AAAAA', RecordHref: `/asset-management/${DEVICE_ID}` }),
  entry({ Id: 2, Action: 'alarmReport.addNote', Entity: 'alarmReport', EntityId: REPORT_ID, RecordLabel: 'ALM-1234', RecordHref: '/alarm-reports/ALM-1234' }),
  entry({ Id: 3, Action: 'feature.update', Entity: 'feature', EntityId: 'ScheduledReports' }),
];
const asked = () => httpMock.mock.calls.filter(([p]) => p === '/ps-admin/audit/get-list').map(([, o]) => (o as { body: AuditListRequest }).body);

let tabId: string;
let restore: () => void;
beforeEach(() => {
  restore = stubGridLayout(600);
  httpMock.mockReset();
  httpMock.mockImplementation(async (path: string) => {
    if (path === '/ps-admin/audit/get-list') return { Items: ENTRIES, TotalCount: 120 } satisfies AuditListDto;
    throw new Error(`unexpected ${path}`);
  });
  const ws = M.openTab(M.emptyWorkspace(), resolveHref('/audit-trail')!);
  tabId = M.focusedTab(ws)!.id;
  appStore.set(workspaceAtom, ws);
});
afterEach(() => {
  cleanup();
  restore();
  appStore.set(workspaceAtom, M.emptyWorkspace());
});

const renderInTab = () => renderInWorkspaceTab(<AuditTrailPage />, tabId, 'auditTrail');
const href = () => M.findTab(appStore.get(workspaceAtom), tabId)!.tab.href;
const actor = () => screen.getByRole('textbox', { name: 'Actor' });

describe('Audit Trail', () => {
  it('its filters and page go to the link and survive a remount from it', async () => {
    const user = userEvent.setup();
    const { unmount } = renderInTab();
    await screen.findByText('SG750-AAAAA');
    expect(href()).toBe('/audit-trail');
    expect(asked()[0]).toMatchObject({ actor: '', action: '', pageNumber: 1, pageSize: 50 });

    await user.type(actor(), 'alex');
    await user.type(screen.getByRole('textbox', { name: 'Action' }), 'update');
    await waitFor(() => expect(href()).toBe('/audit-trail?f.actor=alex&f.action=update'));
    await waitFor(() => expect(asked().at(-1)).toMatchObject({ actor: 'alex', action: 'update', pageNumber: 1 }));
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(href()).toBe('/audit-trail?page=2&f.actor=alex&f.action=update'));
    await waitFor(() => expect(asked().at(-1)).toMatchObject({ actor: 'alex', action: 'update', pageNumber: 2 }));
    unmount();

    // a reload: the saved layout read back, the page mounted again
    const saved = M.serialiseWorkspace(appStore.get(workspaceAtom));
    appStore.set(workspaceAtom, M.restoreWorkspace(JSON.parse(saved), resolveHref)!);
    httpMock.mockClear();
    renderInTab();
    await screen.findByText('SG750-AAAAA');
    expect(actor()).toHaveValue('alex');
    expect(screen.getByRole('textbox', { name: 'Action' })).toHaveValue('update');
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    expect(asked()).toHaveLength(1);
    expect(asked()[0]).toMatchObject({ actor: 'alex', action: 'update', pageNumber: 2, pageSize: 50 });
    // the fields stay as they were: nothing is applied again (still page 2)
    await new Promise((r) => setTimeout(r, 500));
    expect(href()).toBe('/audit-trail?page=2&f.actor=alex&f.action=update');
  });

  it('an older link (Back) puts the fields back, and they stay back', async () => {
    const user = userEvent.setup();
    renderInTab();
    await screen.findByText('SG750-AAAAA');
    await user.type(actor(), 'sam');
    await waitFor(() => expect(href()).toBe('/audit-trail?f.actor=sam'));
    act(() => setTabSearch(tabId, ''));
    await waitFor(() => expect(actor()).toHaveValue(''));
    await new Promise((r) => setTimeout(r, 500)); // past the fields' debounce
    expect(href()).toBe('/audit-trail');
    expect(asked().at(-1)).toMatchObject({ actor: '' });
    act(() => setTabSearch(tabId, '?page=3&f.actor=sam'));
    await waitFor(() => expect(actor()).toHaveValue('sam'));
    await waitFor(() => expect(asked().at(-1)).toMatchObject({ actor: 'sam', pageNumber: 3 }));
  });

  it("a link naming the entity ('?entity=device', as written by hand, or '?f.entity=device') filters the list and shows the filter", async () => {
    for (const link of ['/audit-trail?entity=device', '/audit-trail?f.entity=device']) {
      const ws = M.openTab(M.emptyWorkspace(), resolveHref(link)!);
      tabId = M.focusedTab(ws)!.id;
      appStore.set(workspaceAtom, ws);
      httpMock.mockClear();
      const { unmount } = renderInTab();
      await screen.findByText('SG750-AAAAA');
      expect(asked()[0], link).toMatchObject({ entity: 'device', pageNumber: 1 });
      expect(screen.getByRole('combobox', { name: 'Entity' }), link).toHaveTextContent('device');
      unmount();
    }
  });

  it('Record shows what the record is, as a link that opens it in a tab; a record without a screen shows its id', async () => {
    const user = userEvent.setup();
    renderInTab();
    const device = await screen.findByRole('link', { name: 'SG750-AAAAA' });
    expect(device).toHaveAttribute('href', `/asset-management/${DEVICE_ID}`);
    const report = screen.getByRole('link', { name: 'ALM-1234' });
    expect(report).toHaveAttribute('href', '/alarm-reports/ALM-1234');
    expect(screen.queryByText(REPORT_ID)).toBeNull();
    const featureRow = screen.getByText('feature.update').closest('[role="row"]') as HTMLElement;
    expect(within(featureRow).getByText('ScheduledReports')).toBeInTheDocument();
    expect(within(featureRow).queryByRole('link')).toBeNull();

    await user.click(report);
    const focused = M.focusedTab(appStore.get(workspaceAtom))!;
    expect(focused.href).toBe('/alarm-reports/ALM-1234');
    expect(focused.id).not.toBe(tabId);
  });
});
