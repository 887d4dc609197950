// The app runs under its strict Content-Security-Policy: sign in, the person
// list, the palette, a person form and the shortcuts dialog (Radix dialogs inject a style element
// for the scroll lock) without a single CSP violation. And the ARC manager's user list holds ARC
// staff only (item 9).
import { test, expect, type Page } from '@playwright/test';
import { signedInAs, openPalette, dbQuery, focusPage } from './helpers';
import { first } from '../helpers/lists';
import { ROLE_IDS } from '../../src/shared/permissions';

type Violation = { directive: string; blocked: string; sample: string };

async function watchCsp(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: unknown[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample }));
  });
  const console: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) console.push(m.text());
  });
  return async () => ({ events: (await page.evaluate(() => (window as unknown as { __csp: Violation[] }).__csp)) ?? [], console });
}

test('no CSP violations: sign-in, user list, palette, person form, shortcuts dialog', async ({ page }) => {
  const violations = await watchCsp(page);
  const res = await page.goto('/');
  const csp = res?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");

  await signedInAs(page, 'admin@demo.test');
  await focusPage(page);
  await page.keyboard.press('g');
  await page.keyboard.press('u');
  await expect(page).toHaveURL(/\/persons$/);
  await expect(page.getByRole('row').nth(3)).toBeVisible();

  const someone = first(
    dbQuery<{ firstName: string; lastName: string }>(
      `select p.firstName, p.lastName from persons p join personRoles r on r.personId = p.id where r.roleId = ? and p.email not like '%@demo.test' limit 1`,
      ROLE_IDS.ArcSupervisorRole,
    ),
  );
  const input = await openPalette(page);
  await page.keyboard.type(`${someone.firstName} ${someone.lastName}`);
  await expect(page.getByRole('option', { name: new RegExp(`${someone.firstName} ${someone.lastName}`) }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(input).toBeHidden();
  await expect(page).toHaveURL(/\/persons\/edit\//);
  await expect(page.getByLabel('First name')).toHaveValue(someone.firstName);

  // the shortcuts cheat sheet, a Radix dialog (from outside any field: focus the tab strip)
  await page.getByRole('tab', { selected: true }).first().focus();
  await page.keyboard.press('Shift+Slash');
  await expect(page.getByRole('dialog').getByText('Go to User Management')).toBeVisible();
  await page.keyboard.press('Escape');

  expect(await violations()).toEqual({ events: [], console: [] });
});

test('the ARC manager’s user list holds the centre’s staff only', async ({ page }) => {
  const arcRoles = [ROLE_IDS.ArcManagerRole, ROLE_IDS.ArcSupervisorRole, ROLE_IDS.ArcControllerRole];
  const { n: staff } = first(
    dbQuery<{ n: number }>(
      `select count(*) as n from persons p where p.tenantId = '00000000-0000-4000-8000-00000000a11c'
     and exists (select 1 from personRoles r where r.personId = p.id and r.roleId in (?, ?, ?))`,
      ...arcRoles,
    ),
  );
  const { n: all } = first(dbQuery<{ n: number }>('select count(*) as n from persons'));
  expect(staff).toBeLessThan(all);

  const seen: number[] = [];
  page.on('response', async (r) => {
    if (r.url().includes('/ps-admin/persons/get-list') && r.ok()) seen.push((await r.json()).TotalCount);
  });
  await signedInAs(page, 'arc-manager@demo.test');
  await focusPage(page);
  await page.keyboard.press('g');
  await page.keyboard.press('u');
  await expect(page).toHaveURL(/\/persons$/);
  await expect.poll(() => seen.length).toBeGreaterThan(0);
  expect(seen.every((n) => n === staff)).toBe(true);
});
