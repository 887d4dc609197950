import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appStore } from '../../../src/app/state/store';
import { currentUserAtom, sessionAtom } from '../../../src/app/state/session';
import { Root } from '../../../src/app/app';
import { getToasts } from '../../../src/app/ui/toast';
import { MSG } from '../../../src/shared/messages';
import { Providers, errorResponse, json, polyfillDom, resetApp, session, stubFetch } from './helpers';
import { answer, makeFeatures, makeUserInfo } from '../../helpers/fixtures';

vi.mock('../../../src/app/workspace/workspace', () => ({
  Workspace: () => <p>workspace here</p>,
  preloadInitialViews: () => Promise.resolve(),
  prefetchLikelyViews: () => Promise.resolve(),
}));
vi.mock('../../../src/app/workspace/actions', () => ({ openRoute: vi.fn(() => true) }));

const features = () => json(makeFeatures());
const userInfo = () => json(makeUserInfo({ roles: [] }));

beforeEach(() => {
  resetApp();
  polyfillDom();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const renderRoot = () =>
  render(
    <Providers>
      <Root />
    </Providers>,
  );

describe('routing and start-up', () => {
  it('signed out: an unknown or signed-in path goes to the root and from there to /login', async () => {
    stubFetch(() => features());
    window.history.replaceState(null, '', '/persons/edit/123');
    renderRoot();
    expect(await screen.findByRole('heading', { name: MSG.signInHeading })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/login');
  });

  it('signed out: /forgot-password stays', async () => {
    stubFetch(() => features());
    window.history.replaceState(null, '', '/forgot-password');
    renderRoot();
    expect(await screen.findByRole('heading', { name: MSG.forgotPassword })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/forgot-password');
  });

  it('stored credentials: fetches the current user, then shows the shell and the workspace', async () => {
    appStore.set(sessionAtom, session('ann'));
    window.history.replaceState(null, '', '/persons');
    const { calls } = stubFetch((c) => (c.url === '/api/v1/get-user-info' ? userInfo() : features()));
    renderRoot();
    // The workspace is a chunk of its own, loaded once signed in (the splash shows meanwhile).
    expect(await screen.findByText('workspace here', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('navigation')).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/api/v1/get-user-info')).toHaveLength(1);
    expect(appStore.get(currentUserAtom)?.firstName).toBe('Ann');
  });

  it('stored credentials that no longer work: the session is cleared and the user lands on sign-in', async () => {
    appStore.set(sessionAtom, session('ann'));
    window.history.replaceState(null, '', '/persons');
    stubFetch((c) => (c.url === '/api/v1/get-user-info' ? errorResponse(404, 'not_found', MSG.userNotFound) : features()));
    renderRoot();
    expect(await screen.findByRole('heading', { name: MSG.signInHeading })).toBeInTheDocument();
    expect(appStore.get(sessionAtom)).toBeNull();
    expect(localStorage.getItem('session')).toBeNull();
    expect(window.location.pathname).toBe('/login');
  });

  it('a signed-in visit to /login goes to the root', async () => {
    appStore.set(sessionAtom, session('ann'));
    window.history.replaceState(null, '', '/login');
    stubFetch((c) => (c.url === '/api/v1/get-user-info' ? userInfo() : features()));
    renderRoot();
    // The workspace is a chunk of its own, loaded once signed in (the splash shows meanwhile).
    expect(await screen.findByText('workspace here', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/');
  });
});

describe('reset-password link page', () => {
  it('sets the new password with the token from the link and returns to sign-in', async () => {
    window.history.replaceState(null, '', '/reset-password?token=abc.def');
    const { calls } = stubFetch((c) =>
      c.url === '/api/v1/reset-password/confirm'
        ? json(answer('POST /api/v1/reset-password/confirm', { Content: { Message: MSG.passwordChanged } }))
        : features(),
    );
    renderRoot();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: MSG.submit }));
    expect(await screen.findByText('Please enter new password')).toBeInTheDocument();
    await user.type(screen.getByLabelText('New password'), 'Brand-new-1');
    await user.type(screen.getByLabelText('Repeat new password'), 'Brand-new-2');
    await user.click(screen.getByRole('button', { name: MSG.submit }));
    expect(await screen.findByText(MSG.passwordsDoNotMatch)).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Repeat new password'));
    await user.type(screen.getByLabelText('Repeat new password'), 'Brand-new-1');
    await user.click(screen.getByRole('button', { name: MSG.submit }));
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    const post = calls.find((c) => c.url === '/api/v1/reset-password/confirm')!;
    expect(JSON.parse(post.body!)).toEqual({ token: 'abc.def', newPassword: 'Brand-new-1', newPasswordRepeated: 'Brand-new-1' });
    expect(getToasts().map((t) => t.message)).toEqual([MSG.passwordChanged]);
  });

  it('without a token says the link is invalid', async () => {
    window.history.replaceState(null, '', '/reset-password');
    stubFetch(() => features());
    renderRoot();
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.resetLinkInvalid);
  });
});
