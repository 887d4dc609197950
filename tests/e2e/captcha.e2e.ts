import { test, expect } from '@playwright/test';
import { signIn, dbQuery } from './helpers';
import { MSG } from '../../src/shared/messages';

/** The used solutions the server holds (the sweep of expired ones may remove others meanwhile). */
const usedKeys = () => new Set(dbQuery<{ key: string }>('select key from captchaSolutions').map((r) => r.key));

test('the browser solves the captcha invisibly: sign-in works, nothing shows, the server stored the used solution', async ({ page }) => {
  const before = usedKeys();
  const challenges: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/captcha/challenge')) challenges.push(r.url());
  });
  await signIn(page, 'admin@demo.test');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  expect(challenges.length).toBeGreaterThanOrEqual(1);
  expect([...usedKeys()].filter((k) => !before.has(k))).toHaveLength(1);
  await expect(page.locator('altcha-widget, .grecaptcha-badge:visible')).toHaveCount(0);
});

test('no challenge to be had: sign-in and forgot password show the catalogue message', async ({ page }) => {
  await page.route('**/api/captcha/challenge', (route) => route.abort());
  await signIn(page, 'admin@demo.test');
  await expect(page.getByRole('alert')).toContainText(MSG.captchaFailed);
  await expect(page).toHaveURL(/\/login$/);

  await page.getByRole('link', { name: MSG.forgotPassword }).click();
  await page.getByLabel('Email').fill('admin@demo.test');
  await page.getByRole('button', { name: MSG.submit }).click();
  await expect(page.getByText(MSG.captchaFailed)).toBeVisible();
});
