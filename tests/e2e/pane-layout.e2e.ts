// The workspace side by side, in Chromium against the real server: pages lay out by their pane's
// width (a ~460 px report pane beside the list stacks its details above the map, a narrow list pane
// folds its filters), a list tab keeps filters, sort and page in its link across a reload and Back,
// and every main screen passes axe (no serious or critical violation, one h1) as each role.
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { signedInAs } from './helpers';

// axe walks the whole page: on a shared machine that takes a while.
test.describe.configure({ timeout: 240_000 });

async function axeCheck(page: Page, screen: string) {
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
  // one h1 per visible tab panel, none outside them
  const outside = await page.locator('h1:visible').evaluateAll((hs) => hs.filter((h) => !h.closest('[role="tabpanel"]')).length);
  expect(outside, `h1 outside the page on ${screen}`).toBe(0);
  for (const panel of await page.locator('[role="tabpanel"]:visible').all()) await expect(panel.locator('h1:visible')).toHaveCount(1);
}

async function go(page: Page, keys: string) {
  await page.locator('body').focus();
  for (const k of keys) await page.keyboard.press(k);
}

test('a list tab keeps filters, sort and page in its link: reload and Back', async ({ page }) => {
  await signedInAs(page, 'arc-supervisor@demo.test');
  await go(page, 'gr');
  const grid = page.getByRole('grid', { name: 'Alarm reports' });
  await expect(grid.getByRole('row').nth(1)).toBeVisible();

  // a wider date range, so there are several pages
  const range = page.getByLabel('Alarm closed');
  if (!(await range.isVisible())) await page.getByRole('button', { name: /Show filters/ }).click();
  const options = await range.locator('option').allTextContents();
  const widest = options.find((o) => /12 months|year|All/i.test(o)) ?? options.at(-1)!;
  await range.selectOption({ label: widest });
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/f\.dateRange=/);

  // sort by User Name, then page 2
  await grid.getByRole('button', { name: /User Name/ }).click();
  await expect(grid.getByRole('columnheader', { name: /User Name/ })).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/sort=PersonFullName/);
  const next = page.getByRole('button', { name: 'Next page' });
  await expect(next).toBeEnabled();
  await next.click();
  await expect(page).toHaveURL(/page=2/);
  const firstRowPage2 = await grid.getByRole('row').nth(1).textContent();

  await page.reload();
  await expect(page).toHaveURL(/page=2/);
  await expect(grid.getByRole('columnheader', { name: /User Name/ })).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', /page|true/);
  await expect(grid.getByRole('row').nth(1)).toHaveText(firstRowPage2!);
  await expect(page.getByLabel('Alarm closed')).toHaveValue(/.+/);

  // Back walks the list state: page 1 with the same sort, then the default sort
  await page.goBack();
  await expect(page).not.toHaveURL(/page=2/);
  await expect(page).toHaveURL(/sort=PersonFullName/);
  await expect(page.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', /page|true/);
  await page.goBack();
  await expect(page).not.toHaveURL(/sort=/);
  await expect(grid.getByRole('columnheader', { name: /Date \/ Time/ })).toHaveAttribute('aria-sort', 'descending');
});

test('a ~460 px report pane beside the list: details stack above the map, nothing overlaps; screenshots across 1440 and 1024', async ({ page }) => {
  await signedInAs(page, 'arc-supervisor@demo.test');
  await page.setViewportSize({ width: 1208, height: 900 }); // 280 px navigation + two panes of ~462 px
  await go(page, 'gr');
  const grid = page.getByRole('grid', { name: 'Alarm reports' });
  await expect(grid.getByRole('row').nth(1)).toBeVisible();
  await grid.focus();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.locator('[data-pane-id]')).toHaveCount(2);
  const report = page.locator('[data-pane-id]').nth(1);
  await expect(report.getByRole('heading', { level: 1 })).toBeVisible();
  const map = report.locator('.ar-summary__map:visible').first();
  await expect(map).toBeVisible();
  const paneBox = (await report.boundingBox())!;
  expect(paneBox.width).toBeGreaterThan(420);
  expect(paneBox.width).toBeLessThan(500);
  const mapBox = (await map.boundingBox())!;
  const fields = await report.locator('.ar-summary:visible').first().locator('.ar-field').all();
  expect(fields.length).toBeGreaterThan(5);
  for (const f of fields) {
    const b = (await f.boundingBox())!;
    const overlaps = b.x < mapBox.x + mapBox.width && mapBox.x < b.x + b.width && b.y < mapBox.y + mapBox.height && mapBox.y < b.y + b.height;
    expect(overlaps, `field "${await f.textContent()}" overlaps the map`).toBe(false);
    expect(b.x + b.width, 'field inside its pane').toBeLessThanOrEqual(paneBox.x + paneBox.width + 1);
  }
  // the list pane is narrow too: its filters fold behind the toggle, the search stays
  const list = page.locator('[data-pane-id]').nth(0);
  await expect(list.getByRole('button', { name: /Show filters/ })).toBeVisible();
  await expect(list.getByLabel('Closed from', { exact: true })).toBeHidden();
  await expect(list.getByRole('searchbox', { name: 'Search alarm reports' })).toBeVisible();
  // secondary columns went before anything clipped
  await expect(grid.getByRole('columnheader', { name: 'Tier' })).toHaveCount(0);
  await expect(grid.getByRole('columnheader', { name: /Controller/ })).toBeVisible();
  await axeCheck(page, 'alarm list beside a report');

  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: '.tmp/e2e-results/panes-two-1024x768.png' });

  // three panes across 1440: the list, a report, the user's own profile
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.keyboard.press('Alt+\\');
  await expect(page.locator('[data-pane-id]')).toHaveCount(3);
  await go(page, 'gp');
  await expect(page.locator('[data-pane-id]').nth(2).getByRole('heading', { level: 1 })).toBeVisible();
  await page.screenshot({ path: '.tmp/e2e-results/panes-three-1440x900.png' });
});

const SCREENS: { role: string; email: string; keys: string[] }[] = [
  { role: 'administrator', email: 'admin@demo.test', keys: ['ga', 'gc', 'gu', 'gb'] },
  { role: 'ARC supervisor', email: 'arc-supervisor@demo.test', keys: ['gr'] },
  { role: 'ARC controller', email: 'arc-controller@demo.test', keys: ['gr'] },
];

for (const s of SCREENS) {
  test(`axe: 0 serious or critical violations and one h1 on the main screens as ${s.role}`, async ({ page }) => {
    await signedInAs(page, s.email);
    for (const keys of s.keys) {
      await go(page, keys);
      await expect(page.locator('[role="tabpanel"]:visible h1')).toBeVisible();
      await expect(page.locator('[role="tabpanel"]:visible [aria-busy="true"]')).toHaveCount(0);
      await axeCheck(page, `${keys} as ${s.role}`);
    }
  });
}
