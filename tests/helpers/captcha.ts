// Solves the server's captcha the way the browser does (ALTCHA proof of work), for tests that
// sign in, reset or change passwords through the API as the portal client.
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { CAPTCHA_CHALLENGE_PATH, type AltchaChallenge, type CaptchaChallengeResponse } from '../../src/shared/captcha.js';

/** The captchaResponse for a challenge: base64(JSON {challenge, solution}), the ALTCHA payload. */
export async function solveAltcha(challenge: AltchaChallenge): Promise<string> {
  const solution = await solveChallenge({ challenge: challenge as never, deriveKey, timeout: 30_000 });
  if (!solution) throw new Error('captcha challenge not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** Fetches a challenge (GET /api/captcha/challenge through `get`) and solves it. */
export async function solvedCaptcha(get: (path: string) => Promise<Response> | Response): Promise<string> {
  const res = await get(CAPTCHA_CHALLENGE_PATH);
  if (res.status !== 200) throw new Error(`captcha challenge: ${res.status}`);
  const body = (await res.json()) as CaptchaChallengeResponse;
  if (body.provider !== 'altcha') throw new Error(`captcha provider ${body.provider}: tests solve ALTCHA only`);
  return solveAltcha(body.challenge);
}
