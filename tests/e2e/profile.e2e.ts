import { test, expect } from '@playwright/test';
import { signedInAs, dbQuery, focusPage } from './helpers';
import { first } from '../helpers/lists';
import { MSG } from '../../src/shared/messages';

test('g p opens Edit Profile; a changed name is saved and stored, invalid phone shows the example', async ({ page }) => {
  await signedInAs(page, 'arc-controller@demo.test');
  await focusPage(page);
  await page.keyboard.press('g');
  await page.keyboard.press('p');
  await expect(page).toHaveURL(/\/edit-own-profile$/);
  await expect(page.getByRole('tab', { name: /^Profile/, selected: true })).toBeVisible();
  const last = page.getByLabel(/Last Name/);
  await expect(last).not.toHaveValue('');

  // an invalid personal number: the spec's example message
  const personal = page.getByRole('textbox', { name: /^Personal/ });
  await personal.focus();
  await page.keyboard.press('End');
  await page.keyboard.type('12');
  await page.keyboard.press('Tab');
  await expect(page.getByText(/^Please enter a valid phone number, example: /)).toBeVisible();
  await personal.fill('');

  await last.focus();
  await last.fill('Controller-Renamed');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('region', { name: 'Notifications' }).getByText(MSG.profileUpdated)).toBeVisible();
  const stored = first(dbQuery<{ lastName: string }>("select lastName from persons where email = 'arc-controller@demo.test'"));
  expect(stored.lastName).toBe('Controller-Renamed');
});
