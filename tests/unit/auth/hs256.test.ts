// @vitest-environment node
// HS256 tokens over node:crypto (src/server/auth/hs256.ts): interchangeable with jose's, and every
// token a careful verifier refuses is refused (wrong key, tampered claims, other algorithms, 'none',
// crit headers, expired, not yet valid, other issuer or audience, missing required claims).
import { describe, expect, test } from 'vitest';
import { SignJWT, jwtVerify } from 'jose';
import { signHs256, verifyHs256 } from '../../../src/server/auth/hs256.js';

const secret = new TextEncoder().encode('unit-secret-unit-secret-unit-secret');
const other = new TextEncoder().encode('other-secret-other-secret-other-sec');
const now = new Date('2026-11-01T12:00:00Z');
const t = Math.floor(now.getTime() / 1000);
const checks = { issuer: 'iss-a', audience: 'aud-a', requiredClaims: ['exp', 'sub'], currentDate: now };
const claims = { sub: 'person-1', iss: 'iss-a', aud: 'aud-a', iat: t, exp: t + 60, epoch: 3, role: ['SuperAdminRole'] };
const b64 = (x: unknown) => Buffer.from(JSON.stringify(x)).toString('base64url');

describe('hs256', () => {
  test('our token verifies with jose and jose’s token verifies with ours (same claims)', async () => {
    const ours = signHs256(claims, secret);
    const { payload } = await jwtVerify(ours, secret, { algorithms: ['HS256'], issuer: 'iss-a', audience: 'aud-a', currentDate: now });
    expect(payload).toMatchObject(claims);
    const theirs = await new SignJWT({ epoch: 3 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('person-1')
      .setIssuer('iss-a')
      .setAudience(['aud-b', 'aud-a'])
      .setIssuedAt(t)
      .setExpirationTime(t + 60)
      .sign(secret);
    expect(verifyHs256(theirs, secret, checks)).toMatchObject({ sub: 'person-1', epoch: 3 });
  });

  test('refuses another key, tampered claims or signature, and malformed tokens', () => {
    const token = signHs256(claims, secret);
    expect(verifyHs256(token, secret, checks)).toBeDefined();
    expect(verifyHs256(token, other, checks)).toBeUndefined();
    const [h, , s] = token.split('.');
    expect(verifyHs256(`${h}.${b64({ ...claims, role: ['Other'] })}.${s}`, secret, checks)).toBeUndefined();
    expect(verifyHs256(`${token.slice(0, -2)}AA`, secret, checks)).toBeUndefined();
    for (const bad of ['', 'a.b', 'a.b.c.d', `${token}.x`, `${h}.%%%.${s}`, `${h}.${b64('text')}.${s}`])
      expect(verifyHs256(bad, secret, checks)).toBeUndefined();
  });

  test('refuses alg none, other algorithms and crit extensions even with a valid HMAC', () => {
    const signWith = (header: Record<string, unknown>) => {
      const input = `${b64(header)}.${b64(claims)}`;
      const sig = signHs256(claims, secret).split('.')[2];
      return { input, sig };
    };
    const none = `${b64({ alg: 'none' })}.${b64(claims)}.`;
    expect(verifyHs256(none, secret, checks)).toBeUndefined();
    for (const header of [{ alg: 'HS512' }, { alg: 'HS256', crit: ['exp'] }, { alg: 'HS256', b64: false, crit: ['b64'] }]) {
      const { input, sig } = signWith(header);
      expect(verifyHs256(`${input}.${sig}`, secret, checks)).toBeUndefined();
    }
  });

  test('checks exp (required), nbf, issuer, audience and required claims', () => {
    const v = (c: Record<string, unknown>) => verifyHs256(signHs256(c, secret), secret, checks);
    expect(v({ ...claims, exp: t })).toBeUndefined();
    expect(v({ ...claims, exp: t + 1 })).toBeDefined();
    const { exp: _exp, ...noExp } = claims;
    expect(v(noExp)).toBeUndefined();
    expect(verifyHs256(signHs256(noExp, secret), secret, {})).toBeUndefined();
    expect(v({ ...claims, exp: 'never' })).toBeUndefined();
    expect(v({ ...claims, nbf: t + 10 })).toBeUndefined();
    expect(v({ ...claims, nbf: t })).toBeDefined();
    expect(v({ ...claims, iss: 'iss-b' })).toBeUndefined();
    expect(v({ ...claims, aud: 'aud-b' })).toBeUndefined();
    expect(v({ ...claims, aud: ['aud-b', 'aud-a'] })).toBeDefined();
    const { sub: _sub, ...noSub } = claims;
    expect(v(noSub)).toBeUndefined();
    expect(v({ ...claims, sub: 42 })).toBeUndefined();
  });
});
