// Shared bits for the app-core unit tests: fake tokens, a fetch stub that answers by route,
// a clean slate between tests, and the providers the screens need.
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { Provider as JotaiProvider } from 'jotai';
import { RESET } from 'jotai/utils';
import { QueryClientProvider } from '@tanstack/react-query';
import { Theme } from '@radix-ui/themes';
import { appStore } from '../../../src/app/state/store';
import { currentUserAtom, sessionAtom, type Session } from '../../../src/app/state/session';
import { idleDialogAtom } from '../../../src/app/state/idle';
import { queryClient } from '../../../src/app/api/query-client';
import { dismissAll } from '../../../src/app/ui/toast';
import { P } from '../../../src/shared/permissions';
import type { TokenResponse } from '../../../src/shared/schemas/auth';
import { makeTokenResponse } from '../../helpers/fixtures';
import { stubResizeObserver } from '../../helpers/resize-observer';

const b64url = (s: string) => btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** An unsigned JWT carrying the claims the client reads (it never verifies signatures). */
export function fakeToken(claims: Record<string, unknown>) {
  return `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}.sig`;
}

export const ADMIN_PERMISSIONS = [P.HasAccess, P.DeviceListView, P.CustomerListView, P.PersonListView, P.AlarmReportListView, P.ManageOwnProfile];
export const ARC_CONTROLLER_PERMISSIONS = [
  P.HasAccess,
  P.AdminManageOwnProfile,
  P.ManageOwnProfile,
  P.AlarmReportListView,
  P.AlarmReportView,
  P.AlarmReportAddNote,
];

export function tokens(name: string, permissions: string[] = ADMIN_PERMISSIONS, sub = 'user-1'): TokenResponse {
  return makeTokenResponse({
    access_token: fakeToken({ sub, email: `${name}@example.test`, tenantId: 't1', permissions, role: ['SuperAdminRole'], n: name }),
    refresh_token: `refresh-${name}`,
    expires_in: 900,
  });
}

export function session(name: string, permissions: string[] = ADMIN_PERMISSIONS, sub = 'user-1'): Session {
  const t = tokens(name, permissions, sub);
  return { accessToken: t.access_token, tokenType: 'Bearer', refreshToken: t.refresh_token, expiresAt: Date.now() + 900_000 };
}

export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export const errorResponse = (status: number, code: string, message = 'server says no') =>
  json({ Content: { Message: message, Code: code }, error: code, error_description: message }, status);

export type Call = { url: string; method: string; auth: string | null; body: string | null };

/** Replaces globalThis.fetch; `handler` answers each request. Returns the calls made. */
export function stubFetch(handler: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = new Headers(init?.headers);
    const body = init?.body == null ? null : typeof init.body === 'string' ? init.body : String(init.body);
    const call: Call = { url, method: (init?.method ?? 'GET').toUpperCase(), auth: headers.get('authorization'), body };
    calls.push(call);
    return handler(call);
  });
  vi.stubGlobal('fetch', fn);
  return { calls, fn };
}

export function resetApp() {
  dismissAll();
  queryClient.clear();
  localStorage.clear();
  appStore.set(sessionAtom, RESET);
  appStore.set(currentUserAtom, null);
  appStore.set(idleDialogAtom, null);
  window.history.replaceState(null, '', '/');
}

export function Providers({ children }: { children: ReactNode }) {
  return (
    <JotaiProvider store={appStore}>
      <QueryClientProvider client={queryClient}>
        <Theme>{children}</Theme>
      </QueryClientProvider>
    </JotaiProvider>
  );
}

/** Radix popper/menus measure elements; jsdom has no ResizeObserver. */
export function polyfillDom() {
  stubResizeObserver();
  if (!Element.prototype.hasPointerCapture) {
    Element.prototype.hasPointerCapture = () => false;
    Element.prototype.releasePointerCapture = () => {};
    Element.prototype.setPointerCapture = () => {};
  }
  if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};
  if (!window.matchMedia)
    window.matchMedia = (q: string) =>
      ({
        matches: false,
        media: q,
        onchange: null,
        addListener() {},
        removeListener() {},
        addEventListener() {},
        removeEventListener() {},
        dispatchEvent: () => false,
      }) as MediaQueryList;
}
