// @vitest-environment jsdom
// Single sign-on started at an address its provider does not return to is refused before the
// redirect with a message naming PUBLIC_URL, not the account's "not recognised".
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SsoWrongAddressError, startSsoRedirect } from '../../../src/app/features/auth/sso';
import { queryClient } from '../../../src/app/api/query-client';
import { MSG } from '../../../src/shared/messages';

const config = (appOrigins: string[]) => ({
  enabled: true,
  providerName: 'Demo ID',
  authority: 'https://id.example.test',
  clientId: 'c',
  scope: 'openid',
  prompt: 'login',
  appOrigins,
});

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

describe('single sign-on and the address the app is opened at', () => {
  it('an address the provider does not return to is refused before the redirect, naming PUBLIC_URL', async () => {
    const fetch = vi.fn(
      async (_url: unknown) =>
        new Response(JSON.stringify(config(['https://ws.example.test', 'http://127.0.0.1:8080'])), { headers: { 'content-type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', fetch);
    const err = await startSsoRedirect().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SsoWrongAddressError);
    expect(MSG.ssoWrongAddress((err as SsoWrongAddressError).publicUrl)).toBe(
      'Single Sign-on works only at https://ws.example.test: this page was opened at another address. Open https://ws.example.test and sign in there.',
    );
    expect(fetch.mock.calls.map((c) => String(c[0]))).not.toContain(expect.stringContaining('/sso/nonce'));
  });
});
