import { expect, type Locator, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { E2E_DATA_DIR, DEMO_PASSWORD, E2E_PORT } from './env';
import { solvedCaptcha } from '../helpers/captcha';
import { first, group } from '../helpers/lists';
import type { AdminSettingsDto } from '../../src/shared/schemas/admin';

export { DEMO_PASSWORD };
export const BASE = `http://127.0.0.1:${E2E_PORT}`;

/** Read-only look into the server's SQLite database (outbox codes, etags, sample records). */
export function dbQuery<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(join(E2E_DATA_DIR, 'workspace.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** The newest outbox id of mail to `email` (0: none yet); mail with a larger id came later. */
export const lastOutboxId = (email: string) => first(dbQuery<{ id: number }>('select coalesce(max(id), 0) as id from outbox where recipient = ?', email)).id;

/** The six-digit code in the newest mail to `email` after outbox id `after`, waiting until it is written. */
export async function emailedCode(email: string, after: number) {
  let body = '';
  await expect
    .poll(() => {
      body = dbQuery<{ body: string }>('select body from outbox where recipient = ? and id > ? order by id desc limit 1', email, after)[0]?.body ?? '';
      return body;
    })
    .toMatch(/\d{6}/);
  return group(/(\d{6})/, body);
}

/** Signs in through the form, by keyboard only. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  const emailBox = page.getByLabel('Email');
  await emailBox.focus();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
}

/**
 * How long the answer to a sign-in may take: the browser solves the captcha's proof of work and the
 * server hashes the password, which on a loaded 2-core machine takes far longer than a click.
 * Every wait for a sign-in's outcome (the workspace, a refusal, the code prompt) uses it.
 */
export const SIGN_IN_TIMEOUT = 30_000;

/** Waits for the workspace a sign-in leads to. */
export async function expectSignedIn(page: Page, timeout = SIGN_IN_TIMEOUT) {
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout });
  // the workspace's key listener attached (src/app/keyboard/key-listener.tsx): shortcuts work
  await expect(page.locator('html[data-keys="ready"]')).toHaveCount(1, { timeout });
}

/**
 * Opens the workspace signed in as `email`, and waits for it. The sign-in form itself is driven by
 * keyboard in the tests about signing in (`signIn`); every other test starts from a session of its
 * own taken from the token endpoint (the password grant the form uses, captcha solved here), put
 * where the app keeps it (localStorage `session`), as Playwright's guide to authentication advises.
 * It spares each test the form, the browser's proof of work and a page load, which on a loaded
 * 2-core machine took about five seconds a test. Each test still gets a new session of its own, so
 * one that signs out or rotates its refresh token cannot disturb another.
 */
export async function signedInAs(page: Page, email: string, timeout = SIGN_IN_TIMEOUT) {
  const t = await tokens(email);
  const session = {
    accessToken: t.access_token,
    tokenType: t.token_type || 'Bearer',
    refreshToken: t.refresh_token,
    expiresAt: Date.now() + t.expires_in * 1000,
  };
  await page.goto('/health'); // the app's origin, without starting the app
  await page.evaluate((value) => localStorage.setItem('session', value), JSON.stringify(session));
  await page.goto('/');
  await expectSignedIn(page, timeout);
}

type Tokens = { access_token: string; token_type: string; refresh_token: string; expires_in: number };

/** The token endpoint's answer to a password sign-in as the portal client. */
async function tokens(email: string, password = DEMO_PASSWORD): Promise<Tokens> {
  const res = await fetch(`${BASE}/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: 'portal',
      username: email,
      password,
      captchaResponse: await solvedCaptcha((path) => fetch(`${BASE}${path}`)),
    }).toString(),
  });
  if (!res.ok) throw new Error(`token for ${email}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Tokens;
}

/** A token straight from the API, for server-side checks. */
export async function apiToken(email: string, password = DEMO_PASSWORD) {
  return (await tokens(email, password)).access_token;
}

/**
 * The provider-wide settings as they are now (the second-factor rule, every feature, the enforced
 * single-sign-on domains), and a function that puts them back through the API. A test that
 * changes them calls it in `finally`: one that fails halfway must not leave its worker's server
 * requiring a code or single sign-on at every later sign-in, or every later test on that server
 * fails for a reason not its own. The admin's token is taken here, while the password alone still
 * signs in.
 */
export async function keepProviderSettings() {
  const headers = { authorization: `Bearer ${await apiToken('admin@demo.test')}`, 'content-type': 'application/json' };
  const read = async () => {
    const res = await fetch(`${BASE}/ps-admin/settings`, { headers });
    if (!res.ok) throw new Error(`provider settings: ${res.status} ${await res.text()}`);
    return (await res.json()) as AdminSettingsDto;
  };
  // Called in `finally`: a step that fails is recorded softly, so the test still fails, with its own
  // error shown first, and the other settings are still put back.
  const send = async (method: 'PUT' | 'POST', path: string, body: unknown) => {
    const res = await fetch(`${BASE}${path}`, { method, headers, body: JSON.stringify(body) });
    expect.soft(res.status, `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  };
  const before = await read();
  return async function restore() {
    const now = await read();
    if (now.TwoFactorAuthenticationMode !== before.TwoFactorAuthenticationMode)
      await send('PUT', '/ps-admin/settings/two-factor-mode', { value: before.TwoFactorAuthenticationMode });
    for (const f of before.Features)
      if (now.Features.find((n) => n.FeatureName === f.FeatureName)?.IsEnabled !== f.IsEnabled)
        await send('PUT', '/ps-admin/settings/feature', { name: f.FeatureName, isEnabled: f.IsEnabled });
    for (const d of before.SsoDomains)
      if (!now.SsoDomains.some((n) => n.Domain === d.Domain)) await send('POST', '/ps-admin/sso-domains', { domain: d.Domain, customerId: d.CustomerId });
  };
}

export async function openPalette(page: Page) {
  await page.keyboard.press('Control+k');
  const input = page.getByRole('combobox', { name: 'Command palette' });
  await expect(input).toBeFocused();
  return input;
}

/** Presses Tab until the element has focus (keyboard only, as a user walks the page); fails after `max` presses. */
export async function tabTo(page: Page, target: Locator, max = 60) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

/** The embedded identity provider's name (single sign-on in the e2e server). */
export const SSO_PROVIDER = 'Demo ID';

/** From the sign-in page through the embedded provider's sign-in, by keyboard, back to the workspace's /login. */
export async function signInViaProvider(page: Page, email: string, timeout = SIGN_IN_TIMEOUT) {
  await page.goto('/login');
  const button = page.getByRole('button', { name: `Sign in with ${SSO_PROVIDER}` });
  await expect(button).toBeVisible({ timeout });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/oidc\/interaction\//, { timeout });
  await expect(page.getByLabel('Email')).toBeFocused({ timeout });
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/login$/, { timeout });
}

/**
 * Takes the keyboard focus off whatever holds it (a field a page focused when it loaded, a button),
 * as a click on an empty part of the page does, so that the next keys reach the workspace's
 * shortcuts. `body.focus()` alone does not: the body cannot take the focus, so a focused field
 * keeps it and the shortcut's letters are typed into it.
 */
/** Screenshots of the page at 1440x900 and 1024x768, .tmp/e2e-results/<prefix>-<name>-<width>x<height>.png; the page is left at 1440x900. */
export async function screenshots(page: Page, prefix: string, name: string) {
  for (const [w, h] of [
    [1440, 900],
    [1024, 768],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `.tmp/e2e-results/${prefix}-${name}-${w}x${h}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

export async function focusPage(page: Page) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

/** A notice in the notifications region. */
export const notice = (page: Page, text: string) => page.getByRole('region', { name: 'Notifications' }).getByText(text);

/**
 * Provider Settings, the way an admin opens it: the `g s` shortcut (pressed again until the page is
 * there: the first list may still be taking the focus after sign-in) or, by keyboard, the palette's
 * 'settings' command (in the '>' commands scope). Resolves once its switches show.
 */
export async function openProviderSettings(page: Page, via: 'shortcut' | 'palette' = 'shortcut') {
  if (via === 'shortcut') {
    await expect(async () => {
      await focusPage(page);
      await page.keyboard.press('g');
      await page.keyboard.press('s');
      await expect(page).toHaveURL(/\/provider-settings$/, { timeout: 2000 });
    }).toPass({ timeout: 15_000 });
  } else {
    await focusPage(page);
    await openPalette(page);
    // '>' narrows the palette to commands: without it, records found for the text are listed first
    // and the first of them is highlighted, so Enter would open that record.
    await page.keyboard.type('>settings');
    await expect(page.getByRole('option', { name: /Go to Provider Settings/ }).first()).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/provider-settings$/);
  }
  await expect(page.getByRole('switch', { name: 'Require a second factor' })).toBeVisible();
}

/**
 * Flips a Provider Settings switch (by keyboard: Tab to it, Space; or a click) and waits for the
 * notice that says it was saved; the switch then shows the new state.
 */
export async function flipSetting(page: Page, name: string, saved: string, { by = 'keyboard', timeout }: { by?: 'keyboard' | 'click'; timeout?: number } = {}) {
  const toggle = page.getByRole('switch', { name });
  const was = await toggle.isChecked();
  if (by === 'click') await toggle.click();
  else {
    await tabTo(page, toggle);
    await page.keyboard.press('Space');
  }
  await expect(notice(page, saved)).toBeVisible({ timeout });
  if (was) await expect(toggle).not.toBeChecked();
  else await expect(toggle).toBeChecked();
}

/**
 * The page of the visible tab is there (its h1, nothing busy) and passes axe: no serious or critical
 * violation of WCAG 2.1 A/AA, and one h1 per visible tab panel, none outside them.
 */
export async function expectAccessibleScreen(page: Page, screen: string) {
  await expect(page.locator('[role="tabpanel"]:visible h1').first()).toBeVisible();
  await expect(page.locator('[role="tabpanel"]:visible [aria-busy="true"]')).toHaveCount(0);
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(' | ')}`,
  );
  expect(summary, `axe on ${screen}`).toEqual([]);
  const outside = await page.locator('h1:visible').evaluateAll((hs) => hs.filter((h) => !h.closest('[role="tabpanel"]')).length);
  expect(outside, `h1 outside the page on ${screen}`).toBe(0);
  for (const panel of await page.locator('[role="tabpanel"]:visible').all()) await expect(panel.locator('h1:visible')).toHaveCount(1);
}

/**
 * The bulk list's serials (newest first) as the page stored them: the whole list (`bulk.state`)
 * with the rows scans added since on top (`bulk.state.added`, stored whole again once scanning pauses).
 */
export const storedBulkSerials = (page: Page) =>
  page.evaluate(() => {
    type Row = { id: string; serialNumber: string };
    const s = JSON.parse(localStorage.getItem('bulk.state') ?? '{"list":[],"devices":{}}') as { list: string[]; devices: Record<string, Row> };
    const added = JSON.parse(localStorage.getItem('bulk.state.added') ?? '[]') as { ids: string[]; devices: Row[] }[];
    const devices = { ...s.devices };
    let list = s.list;
    for (const a of added) {
      const fresh = a.devices.filter((d) => !devices[d.id]);
      for (const d of fresh) devices[d.id] = d;
      list = [...a.ids.filter((id) => fresh.some((d) => d.id === id)), ...list];
    }
    return list.map((id) => devices[id]?.serialNumber ?? '(missing)');
  });
