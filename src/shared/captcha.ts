// What the captcha challenge endpoint answers and what both sides agree on (spec §7: the
// captcha token is obtained with action 'login').
export const CAPTCHA_ACTION = 'login';
export const CAPTCHA_CHALLENGE_PATH = '/api/captcha/challenge';

/** An ALTCHA challenge (altcha-lib v2 shape): parameters signed by the server. */
export type AltchaChallenge = {
  parameters: {
    algorithm: string;
    nonce: string;
    salt: string;
    cost: number;
    keyLength: number;
    keyPrefix: string;
    keySignature?: string;
    expiresAt?: number;
    data?: Record<string, string | number | boolean | null>;
  };
  signature?: string;
};

/** GET /api/captcha/challenge: which provider is configured and what the browser needs for it. */
export type CaptchaChallengeResponse =
  | { provider: 'altcha'; challenge: AltchaChallenge }
  | { provider: 'recaptcha'; siteKey: string; action: typeof CAPTCHA_ACTION };
