// Captcha for sign-in, password reset, password change and second-factor change (spec §1, §7).
// One adapter per app: ALTCHA (self-hosted proof of work) unless reCAPTCHA v3 is configured.
// A token passes once (replay store). The browser client (portal) must send one; a confidential
// client that authenticates with its client secret (CLIENT_SECRETS) is exempt at the token endpoint.
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError, deps, type Api, type Ctx, type Deps } from '../http/api.js';
import type { Config } from '../platform/config.js';
import { CODE, MSG } from '../../shared/messages.js';
import { CAPTCHA_CHALLENGE_PATH } from '../../shared/captcha.js';
import { altchaAdapter } from './altcha.js';
import { recaptchaAdapter } from './recaptcha.js';
import { dbReplayStore, redisReplayStore, type ReplayStore } from './replay.js';
import type { CaptchaAdapter } from './types.js';

export type Captcha = { adapter: CaptchaAdapter; replay: ReplayStore };

export function createCaptcha(d: Deps): Captcha {
  const { config } = d;
  const adapter = config.captcha.recaptcha ? recaptchaAdapter(config.captcha.recaptcha, d.log) : altchaAdapter(config.captcha.altcha);
  const inDb = dbReplayStore(d.db, () => config.now());
  const replay = d.redis ? redisReplayStore(d.redis, inDb, { now: () => config.now(), log: d.log }) : inDb;
  return { adapter, replay };
}

const byDeps = new WeakMap<Deps, Captcha>();
export function captchaOf(d: Deps): Captcha {
  let c = byDeps.get(d);
  if (!c) byDeps.set(d, (c = createCaptcha(d)));
  return c;
}

export function captchaFailed(oauth = false) {
  return new ApiError(
    400,
    MSG.captchaFailed,
    CODE.captchaFailed,
    undefined,
    oauth ? { error: CODE.captchaFailed, error_description: MSG.captchaFailed } : undefined,
  );
}

/** Checks and uses up the captcha token; throws 400 captcha_failed when it is missing, wrong, expired or used. */
export async function requireCaptcha(c: Ctx, token: string | null | undefined, opts: { oauth?: boolean } = {}): Promise<void> {
  const d = deps(c);
  const { adapter, replay } = captchaOf(d);
  const now = d.config.now();
  const verdict = token ? await adapter.verify(token, now) : { ok: false as const, reason: 'missing' };
  const fresh = verdict.ok && (await replay.claim(verdict.replayKey, verdict.expiresAt));
  if (!fresh) {
    d.log({ msg: 'captcha failed', path: c.req.path, reason: verdict.ok ? 'replayed' : verdict.reason });
    throw captchaFailed(opts.oauth);
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Client authentication at the token endpoint (form fields, as the spec's token request). A
 * client_id listed in CLIENT_SECRETS is confidential: its client_secret must match (else 400
 * invalid_client), and then it is exempt from the captcha (true). Any other client is public
 * (false): the captcha applies.
 */
export function authenticateClient(config: Config, form: { client_id?: string; client_secret?: string }): boolean {
  const id = form.client_id;
  const expected = id && Object.hasOwn(config.clientSecrets, id) ? config.clientSecrets[id] : undefined;
  if (expected === undefined) return false;
  if (!form.client_secret || !timingSafeEqual(digest(form.client_secret), digest(expected))) {
    throw new ApiError(400, MSG.invalidClient, CODE.invalidClient, undefined, { error: CODE.invalidClient, error_description: MSG.invalidClient });
  }
  return true;
}

/** GET /api/captcha/challenge (public): the provider and what the browser needs to produce a token. */
export function captchaRoutes(api: Api) {
  api.get(CAPTCHA_CHALLENGE_PATH, { access: 'public' }, async (c) => {
    const d = deps(c);
    const body = await captchaOf(d).adapter.challenge(d.config.now());
    return c.json(body, 200, { 'Cache-Control': 'no-store' });
  });
}
