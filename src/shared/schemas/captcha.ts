// GET /api/captcha/challenge: the answer's shape (the types are in src/shared/captcha.ts).
import * as v from 'valibot';
import { CAPTCHA_ACTION } from '../captcha.js';

export const captchaChallengeSchema = v.variant('provider', [
  v.strictObject({
    provider: v.literal('altcha'),
    challenge: v.strictObject({
      parameters: v.looseObject({ algorithm: v.string(), nonce: v.string(), salt: v.string(), cost: v.number(), keyLength: v.number(), keyPrefix: v.string() }),
      signature: v.optional(v.string()),
    }),
  }),
  v.strictObject({ provider: v.literal('recaptcha'), siteKey: v.string(), action: v.literal(CAPTCHA_ACTION) }),
]);
