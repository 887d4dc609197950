// The shell's groundwork: deep links survive sign-in, where each role lands, plain words for
// areas not built yet, the read view for list-only roles, the ? sheet, the favicon.
import { test, expect, type Page } from '@playwright/test';
import { dbQuery, signedInAs, BASE, DEMO_PASSWORD } from './helpers';
import { first } from '../helpers/lists';
import { ROLE_IDS } from '../../src/shared/permissions';
import { NOT_AVAILABLE_TEXT } from '../../src/app/workspace/panels';
import { MSG } from '../../src/shared/messages';

type Row = { id: string; firstName: string; lastName: string; email: string };
const supervisor = () =>
  first(
    dbQuery<Row>(
      `select p.id, p.firstName, p.lastName, p.email from persons p join personRoles r on r.personId = p.id
     where r.roleId = ? and p.email not like '%@demo.test' order by p.lastName, p.firstName limit 1`,
      ROLE_IDS.ArcSupervisorRole,
    ),
  );

/** Fills the sign-in form where the page already is (no navigation to '/'). */
async function signInHere(page: Page, email: string) {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
}

test('a link opened while signed out lands on that record after sign-in', async ({ page }) => {
  const p = supervisor();
  await page.goto(`/persons/edit/${p.id}`);
  await expect(page).toHaveURL(/\/login$/);
  await signInHere(page, 'admin@demo.test');
  await expect(page).toHaveURL(new RegExp(`/persons/edit/${p.id}$`));
  await expect(page.getByRole('tab', { name: new RegExp(`^${p.firstName} ${p.lastName}`), selected: true })).toBeVisible();
  await expect(page.getByLabel(/First name/)).toHaveValue(p.firstName);
  // used once: signing out and in again lands on the landing area
  await page.getByRole('button', { name: /Profile menu/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signInHere(page, 'admin@demo.test');
  await expect(page).toHaveURL(/\/asset-management$/);
});

test('a link to a later area survives sign-in too', async ({ page }) => {
  await page.goto('/customers');
  await expect(page).toHaveURL(/\/login$/);
  await signInHere(page, 'admin@demo.test');
  await expect(page).toHaveURL(/\/customers$/);
  await expect(page.getByRole('tab', { name: /Customers/, selected: true })).toBeVisible();
});

test('an ARC supervisor at / lands on Alarm Reports (the list, #9)', async ({ page }) => {
  await signedInAs(page, 'arc-supervisor@demo.test');
  await expect(page).toHaveURL(/\/alarm-reports$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/alarm-reports$/);
  const main = page.getByRole('region', { name: 'Workspace' });
  await expect(main.getByRole('heading', { name: 'Alarm Reports', level: 1 })).toBeVisible();
  await expect(main.getByRole('grid', { name: 'Alarm reports' })).toBeVisible();
  await expect(main.getByText(NOT_AVAILABLE_TEXT)).toHaveCount(0);
});

test('an ARC manager opens a person from the list in the read-only User Details dialog', async ({ page }) => {
  const p = supervisor();
  await signedInAs(page, 'arc-manager@demo.test');
  await page.goto('/persons');
  await page.getByPlaceholder(MSG.personSearchPlaceholder).fill(p.email);
  await page.getByText(`${p.firstName} ${p.lastName}`, { exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `${p.firstName} ${p.lastName}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Personal information' })).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Physical and medical information' })).toBeVisible();
  await expect(dialog.getByText(p.email)).toBeVisible();
  await expect(dialog.getByText('Sex assigned at birth')).toBeVisible();
  await expect(page.getByText(MSG.forbidden)).toHaveCount(0);
  await expect(dialog.getByRole('textbox')).toHaveCount(0); // read only
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(dialog).toBeHidden();
  // closing the dialog leaves the list where it was (its search is part of the tab's link)
  await expect(page).toHaveURL(new RegExp(`/persons\\?q=${encodeURIComponent(p.email)}$`));
});

test('the ? sheet fits a 1024x768 screen, lists Go to tab 1–9 once and closes with its button', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signedInAs(page, 'admin@demo.test');
  await page.getByRole('tab', { selected: true }).first().focus(); // outside any field
  await page.keyboard.press('Shift+Slash'); // '?' on a UK/US keyboard
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  const box = (await sheet.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(768);
  expect(box.x + box.width).toBeLessThanOrEqual(1024);
  await expect(sheet.getByRole('rowheader', { name: /^Go to tab 1–9/ })).toHaveCount(1);
  await expect(sheet.getByRole('rowheader', { name: 'Go to tab 2' })).toHaveCount(0);
  await sheet.getByRole('button', { name: 'Close' }).click();
  await expect(sheet).toBeHidden();
});

test('a signed-in visit to /login goes to the root and on to the landing area, not the sign-in form', async ({ page }) => {
  await signedInAs(page, 'admin@demo.test');
  await page.goto('/login');
  await expect(page).toHaveURL(/\/asset-management/);
  await expect(page.getByRole('button', { name: 'Log In' })).toHaveCount(0);
});

test('a favicon is served', async ({ page }) => {
  const res = await fetch(`${BASE}/favicon.svg`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('svg');
  await page.goto('/login');
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon.svg');
});

test('a toast does not cover the tab strip', async ({ page }) => {
  await signedInAs(page, 'admin@demo.test');
  await page.goto('/edit-own-profile');
  const last = page.getByRole('textbox', { name: 'Last Name' });
  await expect(last).not.toHaveValue('');
  await last.focus();
  await page.keyboard.press('End');
  await page.keyboard.type('z');
  await page.getByRole('button', { name: 'Save' }).click();
  const toastEl = page.getByRole('region', { name: 'Notifications' }).getByText(MSG.profileUpdated);
  await expect(toastEl).toBeVisible();
  const strip = (await page.getByRole('tablist').first().boundingBox())!;
  const box = (await toastEl.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(strip.y + strip.height);
});
