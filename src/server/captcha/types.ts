import type { CaptchaChallengeResponse } from '../../shared/captcha.js';

export type CaptchaVerdict = { ok: true; replayKey: string; expiresAt: Date } | { ok: false; reason: string };

/** One captcha provider: what the browser gets to produce a token, and the check of that token. */
export type CaptchaAdapter = {
  challenge(now: Date): Promise<CaptchaChallengeResponse>;
  /** Checks the token (not whether it was used before: the replay store does that). */
  verify(token: string, now: Date): Promise<CaptchaVerdict>;
};
