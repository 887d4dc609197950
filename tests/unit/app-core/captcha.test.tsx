// useCaptcha(): solves the server's challenge invisibly; when it cannot, getCaptchaResponse()
// rejects with the spec's 'Captcha failed, please try again later.'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { CaptchaError, isCaptchaFailure, solveAltchaChallenge, useCaptcha } from '../../../src/app/features/auth/captcha';
import { MSG } from '../../../src/shared/messages';
import { errorResponse, json, resetApp, stubFetch } from './helpers';
import { CAPTCHA_PATH, altchaChallengeResponse, isSolvedCaptcha } from './captcha-stub';

beforeEach(() => resetApp());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('useCaptcha', () => {
  it('prepares a solved token on mount; each call gives a fresh one-use token', async () => {
    const { calls } = stubFetch((c) => (c.url === CAPTCHA_PATH ? altchaChallengeResponse() : errorResponse(404, 'not_found')));
    const { result } = renderHook(() => useCaptcha());
    await waitFor(() => expect(calls.filter((c) => c.url === CAPTCHA_PATH)).toHaveLength(1)); // on mount, before any submit
    const first = await result.current.getCaptchaResponse();
    const second = await result.current.getCaptchaResponse();
    expect(first).not.toBe(second);
    expect(await isSolvedCaptcha(first)).toBe(true);
    expect(await isSolvedCaptcha(second)).toBe(true);
  });

  it('no challenge (server down) or an unknown provider: rejects with the catalogue message', async () => {
    stubFetch(() => errorResponse(503, 'unavailable'));
    const { result, unmount } = renderHook(() => useCaptcha());
    const err = await result.current.getCaptchaResponse().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CaptchaError);
    expect((err as Error).message).toBe(MSG.captchaFailed);
    expect(isCaptchaFailure(err)).toBe(true);
    unmount();

    stubFetch(() => json({ provider: 'something-else' }));
    const other = renderHook(() => useCaptcha());
    await expect(other.result.current.getCaptchaResponse()).rejects.toThrow(MSG.captchaFailed);
  });

  it('a server answer with code captcha_failed counts as a captcha failure; other errors do not', () => {
    expect(isCaptchaFailure({ data: { Content: { Code: 'captcha_failed', Message: MSG.captchaFailed } } })).toBe(true);
    expect(isCaptchaFailure({ data: { Content: { Code: 'invalid_grant' } } })).toBe(false);
    expect(isCaptchaFailure(new Error('x'))).toBe(false);
  });
});

describe('without Web Crypto (plain http is no secure context)', () => {
  it('the JavaScript SHA-256 matches node:crypto for every length around the block edges', async () => {
    const { createHash } = await import('node:crypto');
    const { sha256 } = await import('../../../src/app/features/auth/sha256');
    for (const n of [0, 1, 3, 36, 55, 56, 63, 64, 65, 119, 120, 200]) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 255);
      expect(Buffer.from(sha256(data)).toString('hex')).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });

  it('the challenge is still solved (on the main thread) and the solution verifies', async () => {
    const res = await altchaChallengeResponse();
    const { challenge } = (await res.json()) as { challenge: Parameters<typeof solveAltchaChallenge>[0] };
    vi.stubGlobal('crypto', { getRandomValues: <T extends ArrayBufferView>(a: T) => a }); // no .subtle
    let token: string;
    try {
      token = await solveAltchaChallenge(challenge);
    } finally {
      vi.unstubAllGlobals();
    }
    expect(await isSolvedCaptcha(token)).toBe(true);
  });
});
