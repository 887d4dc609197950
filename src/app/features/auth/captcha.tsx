// The captcha the sign-in, forgot-password, change-password and 2FA forms send as
// captchaResponse (spec §7: obtained with action 'login'; the badge is hidden). Invisible: the
// server's GET /api/captcha/challenge names the provider —
//  - ALTCHA (default, self-hosted): the proof of work is solved in Web Workers (altcha's SHA
//    worker) as soon as the form mounts, so a token is usually ready before the user submits;
//  - reCAPTCHA v3 (when the server has a secret): Google's script, execute(siteKey, {action:
//    'login'}) at submit time, badge hidden.
// getCaptchaResponse() resolves with a one-use token or rejects with CaptchaError, whose message
// is the spec's 'Captcha failed, please try again later.'
import { useCallback, useEffect, useRef } from 'react';
import { getCaptchaChallenge } from '../../api/auth';
import { MSG } from '../../../shared/messages';
import { CAPTCHA_ACTION, type AltchaChallenge } from '../../../shared/captcha';

export class CaptchaError extends Error {
  constructor(readonly cause?: unknown) {
    super(MSG.captchaFailed);
    this.name = 'CaptchaError';
  }
}

/** The browser could not produce a token, or the server refused it (code captcha_failed). */
export function isCaptchaFailure(err: unknown): boolean {
  if (err instanceof CaptchaError) return true;
  const body = (err as { data?: { Content?: { Code?: unknown } } } | null)?.data;
  return body?.Content?.Code === 'captcha_failed';
}

const SOLVE_TIMEOUT_MS = 60_000;
/** The server's challenges live 10 minutes; a prepared token older than this is not used. */
const MAX_AGE_MS = 4 * 60_000;

/** Solves an ALTCHA challenge; the payload is base64(JSON {challenge, solution}), as the ALTCHA widget sends it. */
export async function solveAltchaChallenge(challenge: AltchaChallenge): Promise<string> {
  const lib = await import('altcha/lib');
  const ch = challenge as Parameters<typeof lib.solveChallenge>[0]['challenge'];
  let solution;
  if (!globalThis.crypto?.subtle) {
    // Not a secure context (plain http, not localhost): no Web Crypto here or in workers.
    const { sha256DeriveKey } = await import('./sha256');
    solution = await lib.solveChallenge({ challenge: ch, deriveKey: sha256DeriveKey, timeout: SOLVE_TIMEOUT_MS });
  } else if (typeof Worker !== 'undefined') {
    const { default: ShaWorker } = await import('altcha/workers/sha?worker');
    const concurrency = Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2));
    solution = await lib.solveChallengeWorkers({ challenge: ch, concurrency, createWorker: () => new ShaWorker(), timeout: SOLVE_TIMEOUT_MS });
  } else {
    solution = await lib.solveChallenge({ challenge: ch, deriveKey: lib.sha.deriveKey, timeout: SOLVE_TIMEOUT_MS });
  }
  if (!solution) throw new CaptchaError('not solved in time');
  return btoa(JSON.stringify({ challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } }));
}

// ---- reCAPTCHA v3

type Grecaptcha = { ready(cb: () => void): void; execute(siteKey: string, opts: { action: string }): Promise<string> };
let recaptchaLoading: Promise<Grecaptcha> | undefined;

function loadRecaptcha(siteKey: string): Promise<Grecaptcha> {
  return (recaptchaLoading ??= new Promise<Grecaptcha>((resolve, reject) => {
    // Spec: the captcha badge is hidden.
    const style = document.createElement('style');
    style.textContent = '.grecaptcha-badge { visibility: hidden !important; }';
    document.head.appendChild(style);
    const script = document.createElement('script');
    script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
    script.async = true;
    script.onload = () => {
      const g = (window as unknown as { grecaptcha?: Grecaptcha }).grecaptcha;
      if (g) g.ready(() => resolve(g));
      else reject(new CaptchaError('grecaptcha missing'));
    };
    script.onerror = () => {
      recaptchaLoading = undefined;
      script.remove();
      reject(new CaptchaError('script failed to load'));
    };
    document.head.appendChild(script);
  }));
}

// ---- the hook

type Prepared = { kind: 'token'; token: string; preparedAt: number } | { kind: 'recaptcha'; grecaptcha: Grecaptcha; siteKey: string };

async function prepareCaptcha(): Promise<Prepared> {
  const res = await getCaptchaChallenge();
  if (res?.provider === 'recaptcha') return { kind: 'recaptcha', grecaptcha: await loadRecaptcha(res.siteKey), siteKey: res.siteKey };
  if (res?.provider !== 'altcha') throw new CaptchaError('unknown provider');
  return { kind: 'token', token: await solveAltchaChallenge(res.challenge), preparedAt: Date.now() };
}

export function useCaptcha(): { getCaptchaResponse: () => Promise<string> } {
  const next = useRef<Promise<Prepared> | null>(null);
  const prepare = useCallback(() => {
    const p = prepareCaptcha();
    p.catch(() => {}); // reported when the form asks for it
    next.current = p;
    return p;
  }, []);

  useEffect(() => {
    if (!next.current) void prepare();
  }, [prepare]);

  const getCaptchaResponse = useCallback(async () => {
    let lastError: unknown;
    // The prepared one first; if it failed or went stale, one fresh try.
    for (let attempt = 0; attempt < 2; attempt++) {
      const pending = next.current ?? prepare();
      next.current = null;
      try {
        const p = await pending;
        if (p.kind === 'recaptcha') {
          next.current = pending; // the script stays loaded; each submit executes afresh
          return await p.grecaptcha.execute(p.siteKey, { action: CAPTCHA_ACTION });
        }
        if (Date.now() - p.preparedAt > MAX_AGE_MS) continue;
        void prepare(); // a token is used once: the next one gets ready meanwhile (e.g. the 2FA code step)
        return p.token;
      } catch (err) {
        lastError = err;
      }
    }
    throw lastError instanceof CaptchaError ? lastError : new CaptchaError(lastError);
  }, [prepare]);

  return { getCaptchaResponse };
}
