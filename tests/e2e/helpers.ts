import { expect, type Locator, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { E2E_DATA_DIR, DEMO_PASSWORD, E2E_PORT } from './env';
import { solvedCaptcha } from '../helpers/captcha';

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

/** Signs in and waits for the workspace; `timeout` for the sign-in's answer (a loaded machine solves the captcha slowly). */
export async function signedInAs(page: Page, email: string, timeout?: number) {
  await signIn(page, email);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout });
}

/** A token straight from the API, for server-side checks. */
export async function apiToken(email: string, password = DEMO_PASSWORD) {
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
  return (await res.json()).access_token as string;
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
export async function signInViaProvider(page: Page, email: string, timeout?: number) {
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
