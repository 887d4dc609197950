import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { cleanup } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appStore } from '../../../src/app/state/store';
import { currentUserAtom, sessionAtom } from '../../../src/app/state/session';
import { SignInPage } from '../../../src/app/features/auth/sign-in-page';
import { ForgotPasswordPage } from '../../../src/app/features/auth/forgot-password-page';
import { getToasts } from '../../../src/app/ui/toast';
import { queryClient } from '../../../src/app/api/query-client';
import { MSG } from '../../../src/shared/messages';
import { P } from '../../../src/shared/permissions';
import { ARC_CONTROLLER_PERMISSIONS, Providers, errorResponse, json, polyfillDom, resetApp, stubFetch, tokens, type Call } from './helpers';
import { answer, makeFeatures, makeUserInfo } from '../../helpers/fixtures';
import { CAPTCHA_PATH, altchaChallengeResponse, isSolvedCaptcha } from './captcha-stub';
import { slowMachine } from '../ui/slow-machine';

slowMachine();

const features = (sso: boolean) => json(makeFeatures({ SingleSignOn: sso, Devices: true }));
const userInfo = () => json(makeUserInfo());

function server(token: (form: URLSearchParams, call: Call) => Response, opts: { sso?: boolean } = {}) {
  return stubFetch((c) => {
    if (c.url === CAPTCHA_PATH) return altchaChallengeResponse();
    if (c.url === '/features/all') return features(!!opts.sso);
    if (c.url === '/api/v1/sso/configuration') return json({ enabled: false }); // no provider: the button ends in 'unavailable'
    if (c.url === '/connect/token') return token(new URLSearchParams(c.body ?? ''), c);
    if (c.url === '/api/v1/get-user-info') return userInfo();
    if (c.url === '/api/v1/two-factor-authentication/send')
      return json(answer('POST /api/v1/two-factor-authentication/send', { Content: { Message: MSG.verificationCodeResent } }));
    if (c.url === '/api/v1/reset-password') return json(answer('POST /api/v1/reset-password', { Content: { Message: 'ok' } }));
    return errorResponse(404, 'not_found');
  });
}

const renderSignIn = () =>
  render(
    <Providers>
      <SignInPage />
    </Providers>,
  );

async function fillAndSubmit(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: MSG.logIn }));
  return user;
}

beforeEach(() => {
  resetApp();
  polyfillDom();
  window.history.replaceState(null, '', '/login');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('sign-in page', () => {
  it('shows the spec form: headings, fields, Log In, Forgot password? and the external links', async () => {
    server(() => json(tokens('x')));
    renderSignIn();
    expect(screen.getByRole('heading', { name: MSG.welcome(MSG.productName) })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: MSG.signInHeading })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveFocus();
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: MSG.forgotPassword })).toHaveAttribute('href', '/forgot-password');
    for (const name of [MSG.support, MSG.privacyPolicy]) {
      const link = screen.getByRole('link', { name });
      expect(link).toHaveAttribute('target', '_blank');
      expect(link.getAttribute('rel')).toContain('noopener');
    }
    expect(screen.queryByLabelText(MSG.verificationCode)).toBeNull();
  });

  it('toggles the password between hidden and visible', async () => {
    server(() => json(tokens('x')));
    renderSignIn();
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'text');
    await userEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
  });

  it('validates: email and password required, email must be valid; nothing is sent', async () => {
    const { calls } = server(() => json(tokens('x')));
    renderSignIn();
    await userEvent.click(screen.getByRole('button', { name: MSG.logIn }));
    expect(await screen.findByText('Please enter email')).toBeInTheDocument();
    expect(screen.getByText('Please enter password')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    expect(await screen.findByText('Please enter a valid email')).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/connect/token')).toHaveLength(0);
  });

  it('a wrong password shows the catalogue message', async () => {
    server(() => errorResponse(400, 'invalid_grant', MSG.loginFailed));
    renderSignIn();
    await fillAndSubmit('ann@example.test', 'wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.loginFailed);
    expect(appStore.get(sessionAtom)).toBeNull();
  });

  it('sends the password grant form-encoded and, on success, stores the session and lands on Asset Management', async () => {
    const t = tokens('ann');
    const { calls } = server(() => json(t));
    renderSignIn();
    await fillAndSubmit('ann@example.test', 'Secret123!');
    await waitFor(() => expect(window.location.pathname).toBe('/asset-management'));
    const form = new URLSearchParams(calls.find((c) => c.url === '/connect/token')!.body!);
    expect(Object.fromEntries(form)).toEqual({
      username: 'ann@example.test',
      password: 'Secret123!',
      grant_type: 'password',
      client_id: 'portal',
      captchaResponse: expect.any(String),
    });
    expect(await isSolvedCaptcha(form.get('captchaResponse'))).toBe(true);
    expect(appStore.get(sessionAtom)?.accessToken).toBe(t.access_token);
    expect(appStore.get(currentUserAtom)?.firstName).toBe('Ann');
    expect(calls.find((c) => c.url === '/api/v1/get-user-info')?.auth).toBe(`Bearer ${t.access_token}`);
  });

  it('an ARC controller (no asset permission) lands on Alarm Reports', async () => {
    server(() => json(tokens('casey', ARC_CONTROLLER_PERMISSIONS)));
    renderSignIn();
    await fillAndSubmit('casey@example.test', 'Secret123!');
    await waitFor(() => expect(window.location.pathname).toBe('/alarm-reports'));
  });

  it('second factor: 2fa_code_required reveals the code field (no error); a wrong code shows the code message', async () => {
    const { calls } = server((form) => {
      const code = form.get('verificationCode');
      if (!code) return errorResponse(400, '2fa_code_required', 'A verification code has been sent.');
      return code === '246810' ? json(tokens('jo')) : errorResponse(400, 'invalid_verification_code', MSG.invalidCode);
    });
    renderSignIn();
    const user = await fillAndSubmit('jo@example.test', 'Secret123!');

    const code = await screen.findByLabelText(MSG.verificationCode);
    await waitFor(() => expect(code).toHaveFocus());
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(MSG.loginFailed)).toBeNull();
    expect(screen.getByRole('button', { name: MSG.resendVerificationCode })).toBeInTheDocument();

    // required, then exactly six digits
    await user.click(screen.getByRole('button', { name: MSG.logIn }));
    expect(await screen.findByText('Please enter verification code')).toBeInTheDocument();
    await user.type(code, '123');
    expect(await screen.findByText('Please enter a valid verification code')).toBeInTheDocument();

    await user.clear(code);
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: MSG.logIn }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.invalidCode);
    const sent = calls.filter((c) => c.url === '/connect/token').map((c) => new URLSearchParams(c.body!).get('verificationCode'));
    expect(sent).toEqual([null, '000000']);

    await user.clear(code);
    await user.type(code, '246810');
    await user.click(screen.getByRole('button', { name: MSG.logIn }));
    await waitFor(() => expect(window.location.pathname).toBe('/asset-management'));
  });

  it('Resend verification code posts the e-mail to the send endpoint', async () => {
    const { calls } = server(() => errorResponse(400, '2fa_code_required'));
    renderSignIn();
    const user = await fillAndSubmit('jo@example.test', 'Secret123!');
    await user.click(await screen.findByRole('button', { name: MSG.resendVerificationCode }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/v1/two-factor-authentication/send')).toBe(true));
    const send = calls.find((c) => c.url === '/api/v1/two-factor-authentication/send')!;
    expect(send.method).toBe('POST');
    expect(JSON.parse(send.body!)).toEqual({ email: 'jo@example.test' });
    await waitFor(() => expect(getToasts().map((t) => t.message)).toContain(MSG.verificationCodeResent));
  });

  it("'Invalid or expired code…' goes once a new code is sent (Resend verification code)", async () => {
    server((form) =>
      form.get('verificationCode') ? errorResponse(400, 'invalid_verification_code', MSG.invalidCode) : errorResponse(400, '2fa_code_required'),
    );
    renderSignIn();
    const user = await fillAndSubmit('jo@example.test', 'Secret123!');
    await user.type(await screen.findByLabelText(MSG.verificationCode), '000000');
    await user.click(screen.getByRole('button', { name: MSG.logIn }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.invalidCode);
    await user.click(screen.getByRole('button', { name: MSG.resendVerificationCode }));
    await waitFor(() => expect(getToasts().map((t) => t.message)).toContain(MSG.verificationCodeResent));
    expect(screen.queryByText(MSG.invalidCode)).toBeNull();
  });

  it('permission_missing (and a token without admin-panel access) show the permission message', async () => {
    server(() => errorResponse(400, 'permission_missing', MSG.permissionMissing));
    const view = renderSignIn();
    await fillAndSubmit('pat@example.test', 'Secret123!');
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.permissionMissing);
    view.unmount();

    server(() => json(tokens('pat', [P.ManageOwnProfile])));
    renderSignIn();
    await fillAndSubmit('pat@example.test', 'Secret123!');
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.permissionMissing);
    expect(appStore.get(sessionAtom)).toBeNull();
  });

  it("too many attempts (429) shows the server's message; sso_required its catalogue message", async () => {
    server(() => errorResponse(429, 'too_many_attempts', 'Too many sign-in attempts. Try again in 5 minutes.'));
    const view = renderSignIn();
    await fillAndSubmit('ann@example.test', 'x');
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many sign-in attempts. Try again in 5 minutes.');
    view.unmount();

    server(() => errorResponse(400, 'sso_required', 'whatever the server says'));
    renderSignIn();
    await fillAndSubmit('ann@example.test', 'x');
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.ssoRequired);
  });

  it('offers single sign-on only when the public features list enables it', async () => {
    server(() => json(tokens('x')), { sso: false });
    const view = renderSignIn();
    await waitFor(() => expect(localStorage.getItem('IsSSOEnabled')).toBe('false'));
    expect(screen.queryByRole('button', { name: /single sign-on/i })).toBeNull();
    view.unmount();
    queryClient.clear(); // the feature list is cached for minutes; start afresh as a new visit would

    server(() => json(tokens('x')), { sso: true });
    renderSignIn();
    const button = await screen.findByRole('button', { name: /single sign-on/i });
    expect(screen.getByText(MSG.or)).toBeInTheDocument();
    await userEvent.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.ssoUnavailable);
    await userEvent.click(screen.getByRole('button', { name: MSG.back }));
    expect(screen.getByRole('button', { name: MSG.logIn })).toBeInTheDocument();
  });
});

describe('forgot-password page', () => {
  beforeEach(() => window.history.replaceState(null, '', '/forgot-password'));

  it('validates the email, then posts it and confirms with a toast', async () => {
    const { calls } = server(() => json({}));
    render(
      <Providers>
        <ForgotPasswordPage />
      </Providers>,
    );
    expect(screen.getByRole('heading', { name: MSG.forgotPassword })).toBeInTheDocument();
    expect(screen.getByText(MSG.pleaseEnterYourEmail)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: MSG.backToLogin })).toHaveAttribute('href', '/login');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: MSG.submit }));
    expect(await screen.findByText('Please enter email')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'nope');
    expect(await screen.findByText(MSG.enterValidEmailDot)).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'ann@example.test');
    await user.click(screen.getByRole('button', { name: MSG.submit }));
    await waitFor(() => expect(getToasts().map((t) => t.message)).toEqual([MSG.resetLinkSent('ann@example.test')]));
    const post = calls.find((c) => c.url === '/api/v1/reset-password')!;
    expect(JSON.parse(post.body!)).toEqual({ email: 'ann@example.test', captchaResponse: expect.any(String) });
    expect(await isSolvedCaptcha(JSON.parse(post.body!).captchaResponse)).toBe(true);
    expect(window.location.pathname).toBe('/login');
  });

  it('a failed request shows the reset-link failure', async () => {
    stubFetch((c) => (c.url === CAPTCHA_PATH ? altchaChallengeResponse() : errorResponse(500, 'internal_error', 'boom')));
    render(
      <Providers>
        <ForgotPasswordPage />
      </Providers>,
    );
    await userEvent.type(screen.getByLabelText('Email'), 'ann@example.test');
    await userEvent.click(screen.getByRole('button', { name: MSG.submit }));
    await waitFor(() => expect(getToasts().map((t) => t.message)).toEqual([MSG.resetLinkFailed]));
  });
});

describe('captcha (spec §7: the token is obtained invisibly; without one the catalogue message shows)', () => {
  it('sign-in: no challenge to be had → the captcha message, and no password is sent', async () => {
    const { calls } = stubFetch((c) => (c.url === '/features/all' ? features(false) : errorResponse(503, 'unavailable')));
    renderSignIn();
    await fillAndSubmit('ann@example.test', 'Secret123!');
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.captchaFailed);
    expect(calls.filter((c) => c.url === '/connect/token')).toHaveLength(0);
    expect(calls.filter((c) => c.url === CAPTCHA_PATH).length).toBeGreaterThanOrEqual(2); // the prepared one, then one fresh try
  });

  it('sign-in: the server refusing the captcha (captcha_failed) shows the captcha message, not the login failure', async () => {
    server(() => errorResponse(400, 'captcha_failed', MSG.captchaFailed));
    renderSignIn();
    await fillAndSubmit('ann@example.test', 'Secret123!');
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.captchaFailed);
  });

  it('sign-in with a second factor: each request carries its own solved captcha', async () => {
    const { calls } = server((form) => (form.get('verificationCode') === '246810' ? json(tokens('jo')) : errorResponse(400, '2fa_code_required', 'sent')));
    renderSignIn();
    const user = await fillAndSubmit('jo@example.test', 'Secret123!');
    await user.type(await screen.findByLabelText(MSG.verificationCode), '246810');
    await user.click(screen.getByRole('button', { name: MSG.logIn }));
    await waitFor(() => expect(window.location.pathname).toBe('/asset-management'));
    const sent = calls.filter((c) => c.url === '/connect/token').map((c) => new URLSearchParams(c.body!).get('captchaResponse'));
    expect(sent).toHaveLength(2);
    expect(sent[0]).not.toBe(sent[1]);
    for (const token of sent) expect(await isSolvedCaptcha(token)).toBe(true);
  });

  it('forgot password: no challenge to be had → toast "Captcha failed, please try again later.", nothing requested', async () => {
    const { calls } = stubFetch(() => errorResponse(503, 'unavailable'));
    render(
      <Providers>
        <ForgotPasswordPage />
      </Providers>,
    );
    await userEvent.type(screen.getByLabelText('Email'), 'ann@example.test');
    await userEvent.click(screen.getByRole('button', { name: MSG.submit }));
    await waitFor(() => expect(getToasts().map((t) => t.message)).toEqual([MSG.captchaFailed]));
    expect(calls.filter((c) => c.url === '/api/v1/reset-password')).toHaveLength(0);
    expect(window.location.pathname).toBe('/login');
  });
});
