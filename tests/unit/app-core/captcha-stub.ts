// A real ALTCHA challenge for fetch stubs (GET /api/captcha/challenge) and a check that the
// captchaResponse a form sent solves it, as the server would check it.
import { createChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { CAPTCHA_CHALLENGE_PATH } from '../../../src/shared/captcha';

const secrets = { hmacSignatureSecret: 'unit-test', hmacKeySignatureSecret: 'unit-test-key' };

export const CAPTCHA_PATH = CAPTCHA_CHALLENGE_PATH;

export async function altchaChallengeResponse(): Promise<Response> {
  const challenge = await createChallenge({
    algorithm: 'SHA-256',
    cost: 1,
    counter: 1 + Math.floor(Math.random() * 5),
    deriveKey,
    data: { action: 'login', expires: Math.floor(Date.now() / 1000) + 600 },
    ...secrets,
  });
  return new Response(JSON.stringify({ provider: 'altcha', challenge }), { status: 200, headers: { 'content-type': 'application/json' } });
}

/** true when `token` is base64(JSON {challenge, solution}) solving one of our challenges. */
export async function isSolvedCaptcha(token: unknown): Promise<boolean> {
  if (typeof token !== 'string' || !token) return false;
  const { challenge, solution } = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  return (await verifySolution({ challenge, solution, deriveKey, ...secrets })).verified;
}
