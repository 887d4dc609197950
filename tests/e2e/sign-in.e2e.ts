import { test, expect } from '@playwright/test';
import { emailedCode, lastOutboxId, signIn } from './helpers';
import { MSG } from '../../src/shared/messages';

test("signed-out visitors land on the sign-in page with the spec's form", async ({ page }) => {
  await page.goto('/persons');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Forgot password?' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Support' })).toHaveAttribute('target', '_blank');
  await expect(page.getByRole('link', { name: 'Privacy policy' })).toHaveAttribute('target', '_blank');
});

test('a wrong password shows the catalogue message', async ({ page }) => {
  await signIn(page, 'admin@demo.test', 'not-the-password');
  await expect(page.getByText(MSG.loginFailed)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('empty fields show the validation messages', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Please enter email')).toBeVisible();
  await expect(page.getByText('Please enter password')).toBeVisible();
});

test('admin signs in by keyboard and lands in the workspace', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page).toHaveURL(/\/asset-management$/);
  for (const entry of ['Asset Management', 'Customers', 'User Management', 'Alarm Reports'])
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: entry })).toBeVisible();
});

test('second factor: the code from the outbox signs the user in', async ({ page }) => {
  const before = lastOutboxId('admin-2fa@demo.test');
  await signIn(page, 'admin-2fa@demo.test');
  const code = page.getByLabel('Verification code');
  await expect(code).toBeVisible();
  await expect(page.getByText(MSG.loginFailed)).toHaveCount(0); // not shown as an error
  await expect(page.getByText('Resend verification code')).toBeVisible();
  // the step says where the code went (masked)
  await expect(page.getByText('We sent a verification code by e-mail to a•••@demo.test.')).toBeVisible();
  await expect(code).toHaveAccessibleDescription(/by e-mail to a•••@demo\.test/);
  const digits = await emailedCode('admin-2fa@demo.test', before);
  // a wrong code first: the code-specific message
  await code.focus();
  await page.keyboard.type(digits === '000000' ? '111111' : '000000');
  await page.keyboard.press('Enter');
  await expect(page.getByText(MSG.invalidCode)).toBeVisible();
  await code.fill('');
  await code.focus();
  await page.keyboard.type(digits);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

test('a person without admin-panel access is refused with the spec message', async ({ page }) => {
  await signIn(page, 'portal-user@demo.test');
  await expect(page.getByText(MSG.permissionMissing)).toBeVisible();
});

test('logout clears the session and returns to sign-in', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page
    .getByRole('button', { name: /profile|account|user menu/i })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  const keys = await page.evaluate(() => Object.keys(localStorage));
  expect(keys.filter((k) => !/sso/i.test(k))).toEqual([]);
  await page.goto('/persons');
  await expect(page).toHaveURL(/\/login$/);
});
