// The default captcha: a self-hosted ALTCHA proof of work (altcha-lib v2, deterministic mode).
// The server signs a challenge whose answer is a counter drawn from 1..maxNumber; the browser
// finds it by hashing (SHA-256) and sends back base64(JSON {challenge, solution}), the ALTCHA
// widget's payload format. Verifying is two HMACs. No third party, works offline.
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import * as v from 'valibot';
import type { CaptchaConfig } from '../platform/config.js';
import { CAPTCHA_ACTION, type AltchaChallenge } from '../../shared/captcha.js';
import type { CaptchaAdapter } from './types.js';

const MAX_TOKEN_LENGTH = 4_000;

const payloadSchema = v.object({
  challenge: v.object({
    parameters: v.looseObject({
      algorithm: v.string(),
      nonce: v.string(),
      salt: v.string(),
      cost: v.number(),
      keyLength: v.number(),
      keyPrefix: v.string(),
      data: v.optional(v.record(v.string(), v.nullable(v.union([v.string(), v.number(), v.boolean()])))),
    }),
    signature: v.string(),
  }),
  solution: v.object({ counter: v.number(), derivedKey: v.string() }),
});

/** base64(JSON) → { challenge, solution }, or undefined when it is anything else. */
export function parseAltchaPayload(token: string) {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  try {
    const r = v.safeParse(payloadSchema, JSON.parse(Buffer.from(token, 'base64').toString('utf8')));
    return r.success ? r.output : undefined;
  } catch {
    return undefined;
  }
}

export function altchaAdapter(config: CaptchaConfig['altcha']): CaptchaAdapter {
  const secrets = { hmacSignatureSecret: `${config.hmacKey}:challenge`, hmacKeySignatureSecret: `${config.hmacKey}:key` };
  return {
    async challenge(now) {
      // Expiry lives in the signed data and is checked against the app's clock (altcha-lib's own
      // expiresAt check reads Date.now()).
      const expires = Math.floor(now.getTime() / 1000) + config.ttlSeconds;
      const challenge = await createChallenge({
        algorithm: 'SHA-256',
        cost: config.cost,
        counter: randomInt(config.maxNumber),
        deriveKey,
        data: { action: CAPTCHA_ACTION, expires },
        ...secrets,
      });
      return { provider: 'altcha', challenge: challenge as AltchaChallenge };
    },
    async verify(token, now) {
      const payload = parseAltchaPayload(token);
      if (!payload) return { ok: false, reason: 'malformed' };
      const data = payload.challenge.parameters.data ?? {};
      if (data.action !== CAPTCHA_ACTION) return { ok: false, reason: 'wrong-action' };
      if (typeof data.expires !== 'number' || data.expires * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
      try {
        const r = await verifySolution({ challenge: payload.challenge, solution: payload.solution, deriveKey, ...secrets });
        if (!r.verified) return { ok: false, reason: r.invalidSignature ? 'invalid-signature' : 'invalid-solution' };
      } catch {
        return { ok: false, reason: 'malformed' };
      }
      return { ok: true, replayKey: `altcha:${payload.challenge.signature}`, expiresAt: new Date(data.expires * 1000) };
    },
  };
}
