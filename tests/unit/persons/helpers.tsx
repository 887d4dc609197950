// Renders a persons page the way the workspace does: jotai store with a signed-in session
// (permissions and sub come from the access token's claims), a fresh QueryClient, Radix Theme
// and a TabContext whose callbacks are spies.
import { vi } from 'vitest';
import type { ReactElement } from 'react';
import { createStore } from 'jotai';
import type { QueryClient } from '@tanstack/react-query';
import { sessionAtom } from '../../../src/app/state/session';
import type { TabApi } from '../../../src/app/workspace/tab-context';
import { renderInTab, testQueryClient } from '../../helpers/tab-render';
import type { RouteId } from '../../../src/app/paths';

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
export const fakeToken = (claims: Record<string, unknown>) => `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}.sig`;

export const ME = '11111111-1111-4111-8111-111111111111';

export function renderPage(
  ui: ReactElement,
  opts: { permissions: string[]; sub?: string; route?: RouteId; params?: Record<string, string>; queryClient?: QueryClient },
) {
  const store = createStore();
  store.set(sessionAtom, {
    accessToken: fakeToken({ sub: opts.sub ?? ME, permissions: opts.permissions }),
    tokenType: 'Bearer',
    refreshToken: 'r',
    expiresAt: Date.now() + 3_600_000,
  });
  const queryClient = opts.queryClient ?? testQueryClient();
  const tab: TabApi = {
    tabId: `tab-${Math.random().toString(36).slice(2)}`,
    paneId: 'pane-1',
    route: opts.route ?? 'persons',
    params: opts.params ?? {},
    active: true,
    setTitle: vi.fn(),
    setDirty: vi.fn(),
    navigate: vi.fn(),
    back: vi.fn(),
    close: vi.fn(),
  };
  const result = renderInTab(ui, { store, tab, queryClient });
  return { ...result, store, queryClient, tab };
}

/** An error shaped like ofetch's FetchError. */
export const httpError = (status: number, Message: string, Code = 'x', Errors?: Record<string, string>) =>
  Object.assign(new Error(Message), { status, data: { Content: { Message, Code, Errors } } });
