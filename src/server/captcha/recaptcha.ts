// Google reCAPTCHA v3, used when RECAPTCHA_SECRET and RECAPTCHA_SITE_KEY are set. The token is
// checked with the siteverify API (URL configurable: RECAPTCHA_VERIFY_URL, tests use a local
// server): success, action 'login' and a score of at least RECAPTCHA_MIN_SCORE. Fails closed:
// when Google cannot be reached the captcha fails.
import { createHash } from 'node:crypto';
import type { CaptchaConfig } from '../platform/config.js';
import { CAPTCHA_ACTION } from '../../shared/captcha.js';
import type { CaptchaAdapter } from './types.js';

/** Google's documented siteverify answer (v3). */
export type SiteverifyResponse = {
  success: boolean;
  score?: number;
  action?: string;
  challenge_ts?: string;
  hostname?: string;
  'error-codes'?: string[];
};

const TIMEOUT_MS = 5_000;
/** reCAPTCHA tokens live two minutes; keep used ones a little longer. */
const REPLAY_MS = 5 * 60_000;
const MAX_TOKEN_LENGTH = 4_000;

export function recaptchaAdapter(config: NonNullable<CaptchaConfig['recaptcha']>, log: (e: Record<string, unknown>) => void): CaptchaAdapter {
  return {
    async challenge() {
      return { provider: 'recaptcha', siteKey: config.siteKey, action: CAPTCHA_ACTION };
    },
    async verify(token, now) {
      if (token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'malformed' };
      let body: SiteverifyResponse;
      try {
        const res = await fetch(config.verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ secret: config.secret, response: token }).toString(),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        if (!res.ok) throw new Error(`siteverify answered ${res.status}`);
        body = (await res.json()) as SiteverifyResponse;
      } catch (e) {
        log({ msg: 'recaptcha siteverify failed', error: String((e as Error)?.message ?? e) });
        return { ok: false, reason: 'unavailable' };
      }
      if (body.success !== true) return { ok: false, reason: `rejected:${(body['error-codes'] ?? []).join(',')}` };
      if (body.action !== CAPTCHA_ACTION) return { ok: false, reason: 'wrong-action' };
      if (typeof body.score !== 'number' || body.score < config.minScore) return { ok: false, reason: 'low-score' };
      const hash = createHash('sha256').update(token).digest('hex');
      return { ok: true, replayKey: `recaptcha:${hash}`, expiresAt: new Date(now.getTime() + REPLAY_MS) };
    },
  };
}
