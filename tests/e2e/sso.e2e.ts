// Single sign-on end to end: real Chromium, the real server and its embedded OpenID
// provider (/oidc, demo identities). The whole redirect round trip (authorization code with PKCE,
// code in the fragment, token exchange) for each demo SSO account: consent with Back and Accept,
// account choice, a company that requires SSO, an unknown account. Keyboard first; no CSP violation.
import { test, expect, type Page, type TestInfo } from '@playwright/test';
import { dbQuery, signIn, SIGN_IN_TIMEOUT } from './helpers';
import { only } from '../helpers/lists';
import { MSG } from '../../src/shared/messages';

const PROVIDER = 'Demo ID';
const SSO_BUTTON = `Sign in with ${PROVIDER}`;

async function watchCsp(page: Page) {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) seen.push(m.text());
  });
  return () => seen;
}

/** From the sign-in page through the provider's sign-in, by keyboard, back to the workspace's /login. */
async function viaProvider(page: Page, email: string) {
  await page.goto('/login');
  const button = page.getByRole('button', { name: SSO_BUTTON });
  await expect(button).toBeVisible();
  await expect(page.getByText(MSG.or, { exact: true })).toBeVisible();
  await button.focus();
  await page.keyboard.press('Enter');
  // The provider's page (another origin: localhost vs 127.0.0.1, as Entra ID is another origin).
  await expect(page).toHaveURL(/\/oidc\/interaction\//);
  await expect(page.getByRole('heading', { name: PROVIDER })).toBeVisible();
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/login$/); // the fragment with the code is gone from the address
}

async function shots(page: Page, info: TestInfo, name: string) {
  for (const [w, h] of [
    [1440, 900],
    [1024, 768],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: info.outputPath(`${name}-${w}x${h}.png`) });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

const loginMethodOf = (email: string) => only(dbQuery<{ loginMethod: number }>('select loginMethod from persons where email = ?', email)).loginMethod;
const ssoStorage = (page: Page) => page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('sso.')));

test('new SSO user: consent notice, Back clears, Accept signs in; then no Settings and no password', async ({ page }, info) => {
  const csp = await watchCsp(page);
  await viaProvider(page, 'sso-new@demo.test');
  await expect(page.getByRole('heading', { name: MSG.ssoConsentTitle })).toBeVisible({ timeout: SIGN_IN_TIMEOUT });
  await expect(page.getByText(MSG.ssoConsentText)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Accept' })).toBeFocused();
  await shots(page, info, 'sso-consent');
  expect(loginMethodOf('sso-new@demo.test')).toBe(1);

  // Back: the context and the provider cache are gone, the form is back.
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByRole('button', { name: MSG.back })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: MSG.logIn })).toBeVisible();
  expect(await ssoStorage(page)).toEqual([]);
  expect(await page.evaluate(() => localStorage.getItem('IsSSOLoading'))).toBe('false');
  expect(loginMethodOf('sso-new@demo.test')).toBe(1);

  // Again, and Accept.
  await viaProvider(page, 'sso-new@demo.test');
  await expect(page.getByRole('button', { name: 'Accept' })).toBeFocused({ timeout: SIGN_IN_TIMEOUT });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout: SIGN_IN_TIMEOUT });
  expect(loginMethodOf('sso-new@demo.test')).toBe(2);
  expect(await ssoStorage(page)).toEqual([]);

  // Settings is hidden for single-sign-on users; Profile and Log out stay.
  await page
    .getByRole('button', { name: /profile|account|user menu/i })
    .first()
    .click();
  await expect(page.getByRole('menuitem', { name: 'Log out' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Settings' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  // Only 'IsSSOEnabled' is kept after logout.
  expect(await page.evaluate(() => Object.keys(localStorage))).toEqual(['IsSSOEnabled']);

  // The portal password no longer works.
  await signIn(page, 'sso-new@demo.test');
  await expect(page.getByRole('alert')).toHaveText(MSG.ssoRequired, { timeout: SIGN_IN_TIMEOUT });
  expect(csp()).toEqual([]);
});

test('one e-mail, several accounts: the picker lists them, selectable first; choosing one signs in with it', async ({ page }, info) => {
  const csp = await watchCsp(page);
  await viaProvider(page, 'sso-multi@demo.test');
  await expect(page.getByRole('heading', { name: MSG.ssoSelectAccount })).toBeVisible({ timeout: SIGN_IN_TIMEOUT });
  const list = page.getByRole('list', { name: MSG.ssoSelectAccount });
  const entries = list.getByRole('button');
  await expect(entries).toHaveCount(3);
  await expect(entries.nth(0)).toContainText('mika.many@ops.demo.test');
  await expect(entries.nth(1)).toContainText('sso-multi@demo.test');
  await expect(entries.nth(2)).toContainText('mika.many@customer.demo.test');
  await expect(entries.nth(2)).toBeDisabled();
  await expect(entries.nth(0)).toBeFocused();
  const box = await list.boundingBox();
  expect(box?.height ?? 0).toBeLessThanOrEqual(260);
  await shots(page, info, 'sso-accounts');

  // Back, then the round trip again, and pick the second account by keyboard.
  await page.getByRole('button', { name: MSG.back }).click();
  await expect(page.getByRole('button', { name: MSG.logIn })).toBeVisible();
  await viaProvider(page, 'sso-multi@demo.test');
  await expect(entries.nth(0)).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(entries.nth(1)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout: SIGN_IN_TIMEOUT });
  const lastLogin = (email: string) =>
    only(dbQuery<{ lastLoginDate: string | null }>('select lastLoginDate from persons where email = ?', email)).lastLoginDate;
  expect(lastLogin('sso-multi@demo.test')).not.toBeNull();
  expect(lastLogin('mika.many@ops.demo.test')).toBeNull();
  expect(lastLogin('mika.many@customer.demo.test')).toBeNull();
  expect(csp()).toEqual([]);
});

test("a company that requires SSO: the password gets the provider's name in the message; SSO signs in without consent", async ({ page }) => {
  await signIn(page, 'sso@enforced.demo.test');
  await expect(page.getByRole('alert')).toHaveText(MSG.ssoEnforced(PROVIDER), { timeout: SIGN_IN_TIMEOUT });
  await viaProvider(page, 'sso@enforced.demo.test');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout: SIGN_IN_TIMEOUT });
  expect(loginMethodOf('sso@enforced.demo.test')).toBe(2);
});

test('an identity without an account is not recognised; Back returns to the form', async ({ page }, info) => {
  await viaProvider(page, 'sso-unknown@demo.test');
  await expect(page.getByRole('alert')).toHaveText(MSG.ssoNotRecognised, { timeout: SIGN_IN_TIMEOUT });
  await expect(page.getByRole('button', { name: MSG.back })).toBeFocused();
  await shots(page, info, 'sso-not-recognised');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: MSG.logIn })).toBeVisible();
  await expect(page.getByRole('button', { name: SSO_BUTTON })).toBeVisible();
});
