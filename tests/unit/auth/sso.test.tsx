// The sign-in page's single-sign-on sub-views (spec §2, §4, §8): back from the provider
// (the oidc-client-ts round trip stubbed: ../../../src/app/features/auth/sso), the token exchange
// and its outcomes — consent (Back, Accept), account picker, unavailable, generic — and the
// provider's name on the button and in the sso_enforced message.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Providers, errorResponse, json, polyfillDom, resetApp, stubFetch, tokens } from '../app-core/helpers';
import { CAPTCHA_PATH, altchaChallengeResponse, isSolvedCaptcha } from '../app-core/captcha-stub';
import { makeFeatures, makeUserInfo } from '../../helpers/fixtures';
import { slowMachine } from '../ui/slow-machine';
import { MSG } from '../../../src/shared/messages';
import { appStore } from '../../../src/app/state/store';
import { sessionAtom } from '../../../src/app/state/session';
import type { SsoAccount } from '../../../src/shared/schemas/auth';

const sso = vi.hoisted(() => ({
  completeSsoRedirect: vi.fn(async () => 'id-token-1'),
  startSsoRedirect: vi.fn(async () => {}),
  clearSsoCache: vi.fn(async () => {}),
}));
vi.mock('../../../src/app/features/auth/sso', () => ({
  ...sso,
  isProviderReturn: () => /[#&]code=/.test(window.location.hash),
  SsoUnavailableError: class extends Error {},
  SsoWrongAddressError: class extends Error {},
}));

import { SignInPage } from '../../../src/app/features/auth/sign-in-page';

slowMachine();

const PROVIDER = 'Contoso ID';
type TokenHandler = (form: URLSearchParams) => Response;

function server(token: TokenHandler) {
  return stubFetch((c) => {
    if (c.url === CAPTCHA_PATH) return altchaChallengeResponse();
    if (c.url === '/features/all') return json(makeFeatures({ SingleSignOn: true, Devices: true }));
    if (c.url === '/api/v1/sso/configuration')
      return json({
        enabled: true,
        providerName: PROVIDER,
        authority: 'https://login.example.test/t/v2.0',
        clientId: 'c',
        scope: 'openid',
        prompt: 'login',
        appOrigins: [],
      });
    if (c.url === '/connect/token') return token(new URLSearchParams(c.body ?? ''));
    if (c.url === '/api/v1/get-user-info') return json(makeUserInfo({ loginMethod: { value: 2, name: 'SingleSignOn' } }));
    return errorResponse(404, 'not_found');
  });
}

const exchanges = (calls: { url: string; body: string | null }[]) =>
  calls.filter((c) => c.url === '/connect/token').map((c) => Object.fromEntries(new URLSearchParams(c.body ?? '')));

const renderPage = () =>
  render(
    <Providers>
      <SignInPage />
    </Providers>,
  );

const accounts = (list: SsoAccount[]) =>
  json({ Content: { Message: MSG.ssoSelectAccount, Code: 'sso_select_account' }, error: 'x', error_description: 'x', accounts: list }, 400);

beforeEach(() => {
  resetApp();
  polyfillDom();
  sso.completeSsoRedirect.mockClear();
  sso.startSsoRedirect.mockClear();
  sso.clearSsoCache.mockClear();
  window.history.replaceState(null, '', '/login');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('single sign-on on the sign-in page', () => {
  it("the button carries the provider's name, sits below 'or', and starts the redirect", async () => {
    server(() => json(tokens('x')));
    renderPage();
    const button = await screen.findByRole('button', { name: `Sign in with ${PROVIDER}` });
    expect(screen.getByText(MSG.or)).toBeInTheDocument();
    await userEvent.click(button);
    expect(sso.startSsoRedirect).toHaveBeenCalledTimes(1);
  });

  it('back from the provider: consent notice; Accept retries with consent and signs in', async () => {
    window.history.replaceState(null, '', '/login#code=abc&state=xyz');
    localStorage.setItem('IsSSOLoading', 'true');
    const t = tokens('sso');
    const { calls } = server((form) => (form.get('sso_consent') === 'true' ? json(t) : errorResponse(400, 'sso_first_time_login', MSG.ssoConsentTitle)));
    renderPage();
    expect(await screen.findByRole('heading', { name: MSG.ssoConsentTitle })).toBeInTheDocument();
    expect(screen.getByText(MSG.ssoConsentText)).toBeInTheDocument();
    expect(localStorage.getItem('IsSSOLoading')).toBe('false');
    const [first] = exchanges(calls);
    expect(first).toEqual({ id_token: 'id-token-1', grant_type: 'token-exchange', captchaResponse: expect.any(String), sso_consent: '', selected_account: '' });
    expect(await isSolvedCaptcha(first?.captchaResponse)).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(appStore.get(sessionAtom)?.accessToken).toBe(t.access_token));
    expect(exchanges(calls)[1]).toMatchObject({ id_token: 'id-token-1', sso_consent: 'true', selected_account: '' });
    await waitFor(() => expect(window.location.pathname).toBe('/asset-management'));
    expect(sso.clearSsoCache).toHaveBeenCalled();
  });

  it('Back clears the context and the provider cache and shows the form again', async () => {
    window.history.replaceState(null, '', '/login#code=abc&state=xyz');
    const { calls } = server(() => errorResponse(400, 'sso_first_time_login', MSG.ssoConsentTitle));
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: MSG.back }));
    expect(sso.clearSsoCache).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: MSG.logIn })).toBeInTheDocument();
    expect(localStorage.getItem('IsSSOLoading')).toBe('false');
    expect(exchanges(calls)).toHaveLength(1);
  });

  it('several accounts: selectable entries first, the others disabled; choosing one retries with it', async () => {
    window.history.replaceState(null, '', '/login#code=abc&state=xyz');
    const list = [
      { customerName: 'Acme', emailAddress: 'ann@acme.test', canSelect: false },
      { customerName: 'Provider staff', emailAddress: 'ann@provider.test', canSelect: true },
    ];
    const { calls } = server((form) => {
      if (!form.get('selected_account')) return accounts(list);
      return form.get('sso_consent') === 'true' ? json(tokens('ann')) : errorResponse(400, 'sso_first_time_login', MSG.ssoConsentTitle);
    });
    renderPage();
    expect(await screen.findByRole('heading', { name: MSG.ssoSelectAccount })).toBeInTheDocument();
    const entries = within(screen.getByRole('list', { name: MSG.ssoSelectAccount })).getAllByRole('button');
    expect(entries.map((e) => e.textContent)).toEqual(['Provider staffann@provider.test', 'Acmeann@acme.test']);
    expect(entries[1]).toBeDisabled();
    expect(entries[0]).toHaveFocus();
    await userEvent.click(entries[0]!);
    // That account signs in with a password so far: its consent, carrying the choice.
    await userEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(appStore.get(sessionAtom)).not.toBeNull());
    expect(exchanges(calls).map((f) => [f.selected_account, f.sso_consent])).toEqual([
      ['', ''],
      ['ann@provider.test', ''],
      ['ann@provider.test', 'true'],
    ]);
  });

  it("an empty account list says 'No Accounts found' and offers Back", async () => {
    window.history.replaceState(null, '', '/login#code=abc&state=xyz');
    server(() => accounts([]));
    renderPage();
    expect(await screen.findByText(MSG.ssoNoAccounts)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: MSG.back })).toHaveFocus();
  });

  it.each([
    ['sso_unavailable', 400, MSG.ssoUnavailable],
    ['sso_not_recognised', 400, MSG.ssoNotRecognised],
    ['invalid_grant', 400, MSG.ssoNotRecognised],
    ['internal_error', 500, MSG.ssoNotRecognised],
  ])('%s (%i) shows its message with Back', async (code, status, message) => {
    window.history.replaceState(null, '', '/login#code=abc&state=xyz');
    server(() => errorResponse(status, code, 'whatever the server says'));
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    await userEvent.click(screen.getByRole('button', { name: MSG.back }));
    expect(screen.getByRole('button', { name: MSG.logIn })).toBeInTheDocument();
  });

  it('the provider refusing (no token) is the generic message; so is a stale loading flag without a code', async () => {
    window.history.replaceState(null, '', '/login#error=access_denied&state=xyz&code=');
    sso.completeSsoRedirect.mockRejectedValueOnce(new Error('access_denied'));
    const { calls } = server(() => json(tokens('x')));
    const view = renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.ssoNotRecognised);
    expect(exchanges(calls)).toHaveLength(0);
    view.unmount();

    window.history.replaceState(null, '', '/login');
    localStorage.setItem('IsSSOLoading', 'true');
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.ssoNotRecognised);
    expect(localStorage.getItem('IsSSOLoading')).toBe('false');
  });

  it('a page restored from the back-forward cache mid-redirect ends the wait with the missing-token message', async () => {
    server(() => json(tokens('x')));
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: `Sign in with ${PROVIDER}` }));
    expect(await screen.findByRole('status')).toHaveTextContent(`Signing in with ${PROVIDER}`);
    localStorage.setItem('IsSSOLoading', 'true'); // what startSsoRedirect set before leaving
    const restored = new Event('pageshow') as PageTransitionEvent;
    Object.defineProperty(restored, 'persisted', { value: true });
    window.dispatchEvent(restored);
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.ssoNotRecognised);
    expect(localStorage.getItem('IsSSOLoading')).toBe('false');
  });

  it("sso_enforced on a password sign-in names the server's provider", async () => {
    server(() => errorResponse(400, 'sso_enforced', 'x'));
    renderPage();
    await screen.findByRole('button', { name: `Sign in with ${PROVIDER}` });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'eden@enforced.test');
    await user.type(screen.getByLabelText('Password'), 'Whatever1!');
    await user.click(screen.getByRole('button', { name: MSG.logIn }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.ssoEnforced(PROVIDER));
  });
});
