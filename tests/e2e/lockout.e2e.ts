// No self-lockout in Chromium, by keyboard alone: the demo provider admin (admin@demo.test) opens
// Provider Settings from the palette and tries to make their own domain, demo.test, require single
// sign-on. The server refuses it and the page says why; nothing is stored, and the admin's
// password still signs in.
import { test, expect } from '@playwright/test';
import { apiToken, dbQuery, notice, openProviderSettings, signedInAs, tabTo } from './helpers';
import { LOCKOUT_TEXT } from '../../src/shared/messages';

test('a provider admin cannot make their own domain single-sign-on only', async ({ page }) => {
  test.setTimeout(120_000);
  await signedInAs(page, 'admin@demo.test');
  await openProviderSettings(page, 'palette');
  const domainBox = page.getByRole('form', { name: 'Add a single sign-on domain' }).getByRole('textbox', { name: 'Domain' });
  await tabTo(page, domainBox);
  await page.keyboard.type('demo.test');
  await page.keyboard.press('Enter');
  await expect(notice(page, LOCKOUT_TEXT.self('requiring single sign-on for demo.test'))).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('row').filter({ hasText: /^demo\.test/ })).toHaveCount(0);
  expect(dbQuery("select domain from ssoDomains where domain = 'demo.test'")).toHaveLength(0);
  // the password still works
  expect(await apiToken('admin@demo.test')).toBeTruthy();
});
