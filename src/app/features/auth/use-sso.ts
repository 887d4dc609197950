// The single-sign-on context of the sign-in page (spec §3 "Single sign-on context", §4 states):
// after the provider has authenticated, the token exchange answers with a session, the consent
// notice (sso_first_time_login: Accept retries with consent), the account list
// (sso_select_account: choosing retries with that account), unavailable, or the generic message.
// Back clears the context and the provider cache.
import { useCallback, useEffect, useRef, useState } from 'react';
import { MSG } from '../../../shared/messages';
import type { SsoAccount } from '../../../shared/schemas/auth';
import { PermissionMissingError, requestSsoToken, signInWithTokens } from '../../api/auth';
import { SSO_LOADING_KEY } from '../../state/session';
import { isCaptchaFailure } from './captcha';
import { errorCode } from './sign-in-errors';
import { clearSsoCache, completeSsoRedirect, isProviderReturn, SsoUnavailableError, SsoWrongAddressError, startSsoRedirect } from './sso';

export type SsoView =
  | { kind: 'none' }
  | { kind: 'loading' }
  | { kind: 'consent'; idToken: string; selectedAccount?: string }
  | { kind: 'accounts'; idToken: string; accounts: SsoAccount[] }
  | { kind: 'error'; message: string };

const setLoadingFlag = (on: boolean) => localStorage.setItem(SSO_LOADING_KEY, String(on));

/** Selectable entries first (spec §2), keeping the server's order otherwise. */
export const sortAccounts = (list: SsoAccount[]) => [...list].sort((a, b) => Number(b.canSelect) - Number(a.canSelect));

function outcomeOf(err: unknown, idToken: string, selectedAccount: string | undefined): SsoView {
  if (err instanceof SsoUnavailableError) return { kind: 'error', message: MSG.ssoUnavailable };
  if (err instanceof SsoWrongAddressError) return { kind: 'error', message: MSG.ssoWrongAddress(err.publicUrl) };
  if (err instanceof PermissionMissingError) return { kind: 'error', message: MSG.permissionMissing };
  if (isCaptchaFailure(err)) return { kind: 'error', message: MSG.captchaFailed };
  const code = errorCode(err);
  if (code === 'sso_first_time_login') return { kind: 'consent', idToken, selectedAccount };
  if (code === 'sso_select_account') {
    const accounts = (err as { data?: { accounts?: SsoAccount[] } }).data?.accounts;
    return { kind: 'accounts', idToken, accounts: sortAccounts(Array.isArray(accounts) ? accounts : []) };
  }
  if (code === 'sso_unavailable') return { kind: 'error', message: MSG.ssoUnavailable };
  if (code === 'permission_missing') return { kind: 'error', message: MSG.permissionMissing };
  return { kind: 'error', message: MSG.ssoNotRecognised };
}

export function useSso(getCaptchaResponse: () => Promise<string>) {
  const returning = useRef(isProviderReturn());
  const [view, setView] = useState<SsoView>(() => {
    if (returning.current) return { kind: 'loading' };
    // Back from a provider with nothing to exchange: spec §8 "missing provider token".
    if (localStorage.getItem(SSO_LOADING_KEY) === 'true') return { kind: 'error', message: MSG.ssoNotRecognised };
    return { kind: 'none' };
  });

  const exchange = useCallback(
    async (idToken: string, opts: { consent?: boolean; selectedAccount?: string } = {}) => {
      setView({ kind: 'loading' });
      try {
        const tokens = await requestSsoToken({ idToken, captchaResponse: await getCaptchaResponse(), ...opts });
        setLoadingFlag(false);
        await clearSsoCache();
        await signInWithTokens(tokens);
      } catch (err) {
        setLoadingFlag(false);
        setView(outcomeOf(err, idToken, opts.selectedAccount));
      }
    },
    [getCaptchaResponse],
  );

  useEffect(() => {
    if (!returning.current) {
      if (localStorage.getItem(SSO_LOADING_KEY) === 'true') setLoadingFlag(false);
      return;
    }
    returning.current = false;
    void (async () => {
      let idToken: string;
      try {
        idToken = await completeSsoRedirect();
      } catch (err) {
        setLoadingFlag(false);
        await clearSsoCache();
        setView(outcomeOf(err, '', undefined));
        return;
      }
      await exchange(idToken);
    })();
  }, [exchange]);

  // Back from the provider's page by the browser's Back button: a page restored from the
  // back-forward cache would still show the wait. Nothing came back: the missing-token message.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      if (!e.persisted || localStorage.getItem(SSO_LOADING_KEY) !== 'true') return;
      setLoadingFlag(false);
      setView({ kind: 'error', message: MSG.ssoNotRecognised });
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  const start = useCallback(async () => {
    setView({ kind: 'loading' });
    try {
      await startSsoRedirect();
    } catch (err) {
      setView(outcomeOf(err, '', undefined));
    }
  }, []);

  const back = useCallback(async () => {
    setLoadingFlag(false);
    await clearSsoCache();
    setView({ kind: 'none' });
  }, []);

  const accept = useCallback(() => {
    if (view.kind === 'consent') void exchange(view.idToken, { consent: true, selectedAccount: view.selectedAccount });
  }, [view, exchange]);

  const choose = useCallback(
    (account: SsoAccount) => {
      if (view.kind === 'accounts' && account.canSelect) void exchange(view.idToken, { selectedAccount: account.emailAddress });
    },
    [view, exchange],
  );

  return { view, start, back, accept, choose };
}
