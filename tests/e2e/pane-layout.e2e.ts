// The workspace side by side, in Chromium against the real server: pages lay out by their pane's
// width (a ~460 px report pane beside the list stacks its details above the map, a narrow list pane
// folds its filters), a list tab keeps filters, sort and page in its link across a reload and Back,
// a dialog opens over the pane it belongs to (so does the question a dirty tab's × asks), lists in
// two or three panes never scroll sideways, typed filter dates are London days in a browser
// elsewhere, and every screen passes axe (no serious or critical violation, one h1) as each role
// that can open it (a device whose History scrolls sideways too). Each test starts from its own
// browser context, so from no remembered layout; tests that measure panes start from one pane.
import { test, expect, type Locator, type Page } from '@playwright/test';
import { apiToken, BASE, dbQuery, expectAccessibleScreen, signedInAs, focusPage } from './helpers';
import { first } from '../helpers/lists';
import { MSG, PAGE_TITLES } from '../../src/shared/messages';

// axe walks the whole page: on a shared machine that takes a while. Each test signs in and sets up
// what it looks at, so the file's tests may run on several workers at once (the longest file).
test.describe.configure({ mode: 'parallel', timeout: 240_000 });

async function go(page: Page, keys: string) {
  await focusPage(page);
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
  // page 1's rows stay on screen (the list busy) until page 2's arrive
  await expect(grid).not.toHaveAttribute('aria-busy', 'true');
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
  // secondary columns went first, then the others that did not fit: the main columns stay, nothing scrolls sideways
  await expect(grid.getByRole('columnheader', { name: 'Tier' })).toHaveCount(0);
  await expect(grid.getByRole('columnheader', { name: /Date \/ Time/ })).toBeVisible();
  await expect(grid.getByRole('columnheader', { name: /User Name/ })).toBeVisible();
  await expectNoSidewaysScroll(list, 'alarm list beside a report');
  await expectAccessibleScreen(page, 'alarm list beside a report');

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

// g p own profile, g s provider settings, g l audit trail
const SCREENS: { role: string; email: string; keys: string[] }[] = [
  { role: 'administrator', email: 'admin@demo.test', keys: ['ga', 'gc', 'gu', 'gb', 'gp', 'gs', 'gl'] },
  { role: 'read-only administrator', email: 'admin-readonly@demo.test', keys: ['gp', 'gs', 'gl'] },
  { role: 'ARC manager', email: 'arc-manager@demo.test', keys: ['gu', 'gp'] },
  { role: 'ARC supervisor', email: 'arc-supervisor@demo.test', keys: ['gr', 'gp'] },
  { role: 'ARC controller', email: 'arc-controller@demo.test', keys: ['gr', 'gp'] },
];

for (const s of SCREENS) {
  test(`axe: 0 serious or critical violations and one h1 on the main screens as ${s.role}`, async ({ page }) => {
    await signedInAs(page, s.email);
    for (const keys of s.keys) {
      await go(page, keys);
      await expectAccessibleScreen(page, `${keys} as ${s.role}`);
    }
  });
}

const inside = (inner: { x: number; y: number; width: number; height: number }, outer: { x: number; y: number; width: number; height: number }) =>
  inner.x >= outer.x - 1 &&
  inner.y >= outer.y - 1 &&
  inner.x + inner.width <= outer.x + outer.width + 1 &&
  inner.y + inner.height <= outer.y + outer.height + 1;

test('a dialog opened in the right pane opens over that pane, centred and no wider than it', async ({ page }) => {
  await signedInAs(page, 'arc-supervisor@demo.test');
  await go(page, 'gr');
  const grid = page.getByRole('grid', { name: 'Alarm reports' });
  await expect(grid.getByRole('row').nth(1)).toBeVisible();
  await grid.focus();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.locator('[data-pane-id]')).toHaveCount(2);
  const left = page.locator('[data-pane-id]').nth(0);
  const right = page.locator('[data-pane-id]').nth(1);
  await expect(right.getByRole('heading', { level: 1 })).toBeVisible();

  await right.getByRole('button', { name: 'Add Note' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add alarm report note' });
  await expect(dialog).toBeVisible();
  // the dialog is part of the right pane, lies within it and is centred over it
  await expect(right.getByRole('dialog', { name: 'Add alarm report note' })).toBeVisible();
  const paneBox = (await right.boundingBox())!;
  const box = (await dialog.boundingBox())!;
  expect(inside(box, paneBox), `dialog ${JSON.stringify(box)} inside the right pane ${JSON.stringify(paneBox)}`).toBe(true);
  expect(Math.abs(box.x + box.width / 2 - (paneBox.x + paneBox.width / 2))).toBeLessThan(4);
  // the left pane is not under the dialog's backdrop: its list is still in sight
  const leftBox = (await left.boundingBox())!;
  const overlay = right.locator('.rt-BaseDialogOverlay');
  const overlayBox = (await overlay.boundingBox())!;
  expect(overlayBox.x).toBeGreaterThanOrEqual(leftBox.x + leftBox.width - 1);
  await page.screenshot({ path: '.tmp/e2e-results/pane-dialog-right-1440.png' });
  // Ctrl+Enter adds the note from the dialog; the dialog closes and the report shows it
  const text = `Pane dialog note ${Date.now()}`;
  await dialog.getByLabel(/Note text/).fill(text);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(right.getByText(text).first()).toBeVisible();
});

test("closing a dirty tab by its close button asks over that tab's pane; Escape, Enter and Tab work the question", async ({ page }) => {
  const person = first(
    dbQuery<{ id: string; firstName: string; lastName: string }>(
      "select id, firstName, lastName from persons where email like '%@arc.example' order by lastName desc limit 1",
    ),
  );
  await signedInAs(page, 'admin@demo.test');
  await page.goto(`/persons/edit/${person.id}`);
  const name = new RegExp(`${person.firstName} ${person.lastName}`);
  await expect(page.getByRole('tab', { name })).toBeVisible();
  await page.keyboard.press('Alt+m'); // the edit tab moves to a new right pane
  const panes = page.locator('[data-pane-id]');
  await expect(panes).toHaveCount(2);
  const left = panes.nth(0);
  const right = panes.nth(1);
  const tab = right.getByRole('tab', { name });
  await expect(tab).toBeVisible();
  // an unsaved change in the right pane's form
  const firstName = right.getByLabel(/First name/);
  await firstName.click();
  await page.keyboard.press('End');
  await page.keyboard.type('x');
  await expect(right.getByRole('img', { name: 'Unsaved changes' })).toBeVisible();
  // the focus goes to the left pane; then the mouse closes the right pane's tab with its ×
  await left.locator('[role="tabpanel"]:visible h1').click();
  await expect(left).toHaveAttribute('data-focused', 'true');
  const closeButton = right.locator('.ws-tab-close');
  await closeButton.click();

  const question = page.getByRole('alertdialog');
  await expect(question).toContainText(MSG.unsavedChanges);
  // the question is part of the right pane, lies within it, and its backdrop leaves the left pane in sight
  await expect(right.getByRole('alertdialog')).toBeVisible();
  const paneBox = (await right.boundingBox())!;
  const box = (await question.boundingBox())!;
  expect(inside(box, paneBox), `question ${JSON.stringify(box)} inside the right pane ${JSON.stringify(paneBox)}`).toBe(true);
  const leftBox = (await left.boundingBox())!;
  const overlayBox = (await right.locator('.rt-BaseDialogOverlay').boundingBox())!;
  expect(overlayBox.x).toBeGreaterThanOrEqual(leftBox.x + leftBox.width - 1);
  await page.screenshot({ path: '.tmp/e2e-results/pane-close-dirty-tab-1440.png' });

  // by keyboard: the focus starts on Cancel; Escape keeps the tab and its change
  await expect(question.getByRole('button', { name: MSG.uiCancel })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(question).toBeHidden();
  await expect(tab).toBeVisible();
  await expect(firstName).toHaveValue(`${person.firstName}x`);
  // Enter on Cancel keeps it too
  await closeButton.click();
  await expect(right.getByRole('alertdialog')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(question).toBeHidden();
  await expect(tab).toBeVisible();
  // Tab to OK, Enter: the tab closes, unsaved
  await closeButton.click();
  await expect(right.getByRole('alertdialog')).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(question.getByRole('button', { name: 'OK' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(question).toBeHidden();
  await expect(page.getByRole('tab', { name })).toHaveCount(0);
  expect(first(dbQuery<{ firstName: string }>('select firstName from persons where id = ?', person.id)).firstName).toBe(person.firstName);
});

/** The list in `scope` (a pane) and its page fit sideways: no scrolling (the columns follow a resize after a moment). */
async function expectNoSidewaysScroll(scope: Locator, what: string) {
  // The visible tab's list once it has loaded (a tab just opened shows "Loading…" for a moment).
  const grid = scope.locator('[role="tabpanel"]:visible [role="grid"]').first();
  await expect(grid.locator('[role="columnheader"]').first(), `${what}: at least one column`).toBeVisible({ timeout: 30_000 });
  await expect(grid.getByRole('row').nth(1)).toBeVisible();
  const overflow = (el: Element) => el.scrollWidth - el.clientWidth;
  await expect.poll(() => grid.evaluate(overflow), { message: `${what}: the list scrolls sideways` }).toBeLessThanOrEqual(0);
  const panel = scope.locator('[role="tabpanel"]:visible');
  await expect.poll(() => panel.evaluate(overflow), { message: `${what}: the page scrolls sideways` }).toBeLessThanOrEqual(1);
}

/**
 * Back to one pane, the way a user would: the focus in the last pane, Alt+W until its tabs and then
 * the pane itself are gone; again while there is more than one. (The layout is remembered in the
 * browser, per user: a test's own browser context starts with none, so this is a guard.)
 */
async function resetLayout(page: Page) {
  const panes = page.locator('[data-pane-id]');
  for (let i = 0; i < 30 && (await panes.count()) > 1; i++) {
    await panes.last().focus();
    await page.keyboard.press('Alt+w');
  }
  await expect(panes).toHaveCount(1);
}

/** Moves the focus to the n-th pane (left to right) by keyboard: Alt+` goes to the next pane. */
async function focusPane(page: Page, n: number) {
  const pane = page.locator('[data-pane-id]').nth(n);
  for (let i = 0; i < 4 && (await pane.getAttribute('data-focused')) !== 'true'; i++) await page.keyboard.press('Alt+`');
  await expect(pane).toHaveAttribute('data-focused', 'true');
}

/** The widths of the panes, left to right. */
const paneWidths = (page: Page) => page.locator('[data-pane-id]').evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().width)));

test('three panes across 1024 px: no list scrolls sideways; the lists keep their leading columns', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signedInAs(page, 'admin@demo.test');
  await resetLayout(page);
  await go(page, 'ga');
  await page.keyboard.press('Alt+\\');
  await expect(page.locator('[data-pane-id]')).toHaveCount(2);
  await go(page, 'gc');
  await page.keyboard.press('Alt+\\');
  await expect(page.locator('[data-pane-id]')).toHaveCount(3);
  await go(page, 'gu');
  const panes = page.locator('[data-pane-id]');
  // from one pane, the splits halve the focused pane: a half and two quarters
  const shape = (ok: (ws: number[]) => boolean) => async () => {
    const ws = await paneWidths(page);
    return ok(ws) ? 'as expected' : ws.join(' / ');
  };
  await expect.poll(shape(([a, b, c]) => Math.abs(a! - 2 * b!) < 12 && Math.abs(b! - c!) < 6)).toBe('as expected');
  // even thirds: the first pane gives up what the split left it (the resize lands after a moment)
  await focusPane(page, 0);
  for (let i = 0; i < 3; i++) await page.keyboard.press('Alt+,');
  await expect.poll(shape((ws) => ws.every((w) => w > 280 && w < 345))).toBe('as expected');
  await expectNoSidewaysScroll(panes.nth(0), 'assets');
  await expect(panes.nth(0).getByRole('columnheader', { name: /Serial Number/ })).toBeVisible();
  await expectNoSidewaysScroll(panes.nth(1), 'customers');
  await expect(panes.nth(1).getByRole('columnheader', { name: /Name/ }).first()).toBeVisible();
  await expectNoSidewaysScroll(panes.nth(2), 'persons');
  await page.screenshot({ path: '.tmp/e2e-results/pane-three-lists-1024.png' });
  // the audit trail and the alarm list in the third pane
  await focusPane(page, 2);
  await go(page, 'gl');
  await expectNoSidewaysScroll(panes.nth(2), 'audit trail');
  await go(page, 'gr');
  await expectNoSidewaysScroll(panes.nth(2), 'alarm reports');
  await expect(panes.nth(2).getByRole('columnheader', { name: /Date \/ Time/ })).toBeVisible();
  await page.screenshot({ path: '.tmp/e2e-results/pane-three-alarms-1024.png' });
});

test('two panes across 1024 px: the device, customer, person and alarm lists drop the columns that do not fit; none scrolls sideways', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signedInAs(page, 'admin@demo.test');
  await resetLayout(page);
  const panes = page.locator('[data-pane-id]');
  await show(page, panes.nth(0), 'ga');
  await page.keyboard.press('Alt+\\');
  await expect(panes).toHaveCount(2);
  await show(page, panes.nth(1), 'gc');
  // two panes of about 500 px: wider than a compact table, narrower than the lists' full widths
  const widths = await paneWidths(page);
  for (const w of widths) expect(w, `pane widths ${widths.join(' / ')}`).toBeGreaterThan(430);
  for (const w of widths) expect(w, `pane widths ${widths.join(' / ')}`).toBeLessThan(560);
  const devices = panes.nth(0).getByRole('grid', { name: 'Assets' });
  await expectNoSidewaysScroll(panes.nth(0), 'devices');
  // the leading columns stay; secondary ones went first
  await expect(devices.getByRole('columnheader', { name: /Serial Number/ })).toBeVisible();
  await expect(devices.getByRole('columnheader', { name: /SIM Serial/ })).toHaveCount(0);
  await expect(devices.getByRole('columnheader', { name: /Order Number/ })).toHaveCount(0);
  await expectNoSidewaysScroll(panes.nth(1), 'customers');
  await expect(panes.nth(1).getByRole('columnheader', { name: 'Name', exact: true })).toBeVisible();
  await page.screenshot({ path: '.tmp/e2e-results/pane-two-lists-1024x768.png' });
  // the person and alarm lists in the right pane
  await show(page, panes.nth(1), 'gu');
  await expectNoSidewaysScroll(panes.nth(1), 'persons');
  await show(page, panes.nth(1), 'gr');
  await expectNoSidewaysScroll(panes.nth(1), 'alarm reports');
  const alarms = panes.nth(1).getByRole('grid', { name: 'Alarm reports' });
  await expect(alarms.getByRole('columnheader', { name: /Date \/ Time/ })).toBeVisible();
  await expect(alarms.getByRole('columnheader', { name: /User Name/ })).toBeVisible();
  for (const secondary of ['Tier', 'Device', 'Category', 'Type'])
    await expect(alarms.getByRole('columnheader', { name: secondary, exact: true })).toHaveCount(0);
  await page.screenshot({ path: '.tmp/e2e-results/pane-two-lists-alarms-1024x768.png' });
});

/** dd/MM/yyyy and yyyy-MM-dd of today in London. */
function londonToday() {
  const iso = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const [y, m, d] = iso.split('-');
  return { iso, typed: `${d}/${m}/${y}` };
}

/** The London hour now: before 11 a zone eleven hours behind is still on yesterday, from 11 one fourteen hours ahead is on tomorrow. */
const LONDON_HOUR = Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
const OTHER_DAY_ZONE = LONDON_HOUR < 11 ? 'Pacific/Pago_Pago' : 'Pacific/Kiritimati';

test.describe("a browser whose day is not London's", () => {
  test.use({ timezoneId: OTHER_DAY_ZONE });

  test("Closed to: London's today may be picked and is sent as that day; London's tomorrow is refused", async ({ page }) => {
    const today = londonToday();
    const tomorrow = new Date(`${today.iso}T12:00:00Z`);
    tomorrow.setUTCDate(tomorrow.getUTCDate() + 1);
    const tomorrowIso = tomorrow.toISOString().slice(0, 10);
    const tomorrowTyped = tomorrowIso.split('-').reverse().join('/');
    const asked: (string | null)[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/alarm-report/get-list')) asked.push(r.postDataJSON()?.alarmClosedDateTo ?? null);
    });
    await signedInAs(page, 'arc-supervisor@demo.test');
    // the browser's own day differs from London's
    expect(await page.evaluate(() => new Date().toDateString())).not.toBe(new Date(`${today.iso}T12:00:00Z`).toDateString());
    await go(page, 'gr');
    const grid = page.getByRole('grid', { name: 'Alarm reports' });
    await expect(grid.getByRole('row').nth(1)).toBeVisible();
    const closedTo = page.getByLabel('Closed to', { exact: true });
    if (!(await closedTo.isVisible())) await page.getByRole('button', { name: /Show filters/ }).click();
    // the calendar offers London's today and nothing after it
    await page.getByRole('button', { name: 'Choose Closed to' }).click();
    await expect(page.locator(`[data-day="${today.iso}"]`)).toBeVisible();
    await expect(page.locator(`[data-day="${today.iso}"]`)).not.toHaveAttribute('data-disabled');
    if (await page.locator(`[data-day="${tomorrowIso}"]`).count())
      await expect(page.locator(`[data-day="${tomorrowIso}"]`)).toHaveAttribute('data-disabled', 'true');
    await page.keyboard.press('Escape');
    // London's tomorrow is a future day: explained beside the field, never sent
    await closedTo.fill(tomorrowTyped);
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByText(MSG.dateInFuture)).toBeVisible();
    // London's today is not
    await closedTo.fill(today.typed);
    const sent = page.waitForRequest((r) => r.url().endsWith('/alarm-report/get-list') && (r.postDataJSON()?.alarmClosedDateTo ?? null) !== null);
    await page.getByRole('button', { name: 'Apply' }).click();
    expect((await sent).postDataJSON().alarmClosedDateTo).toBe(today.iso);
    await expect(page.getByText(MSG.dateInFuture)).toHaveCount(0);
    await expect(page).toHaveURL(/f\.dateTo=/);
    expect(asked).not.toContain(tomorrowIso);
  });
});

test.describe('a browser in New York', () => {
  test.use({ timezoneId: 'America/New_York' });

  test('Audit Trail From / To: typed DD/MM/YYYY days are London days', async ({ page }) => {
    const today = londonToday();
    await signedInAs(page, 'admin@demo.test');
    await page.goto('/audit-trail');
    await expect(page.getByRole('grid', { name: 'Audit entries' })).toBeVisible();
    const answered = page.waitForResponse(
      (r) => r.url().endsWith('/ps-admin/audit/get-list') && !!r.request().postDataJSON()?.from && !!r.request().postDataJSON()?.to,
    );
    await page.getByLabel('From', { exact: true }).fill(today.typed);
    await page.getByLabel('To', { exact: true }).fill(today.typed);
    const body = (await answered).request().postDataJSON();
    // the London day's midnight to the next (GMT in winter, BST in summer), not New York's
    expect(body.from).toBe(londonMidnight(today.iso));
    expect(new Date(body.to).getTime() - new Date(body.from).getTime()).toBeGreaterThanOrEqual(23 * 3600_000);
    expect(new Date(body.to).getTime() - new Date(body.from).getTime()).toBeLessThanOrEqual(25 * 3600_000);
    expect(londonDayOf(body.to)).not.toBe(today.iso);
    // every entry shown is of that day, in London time
    const grid = page.getByRole('grid', { name: 'Audit entries' });
    await expect(grid).not.toHaveAttribute('aria-busy', 'true');
    for (const row of await grid.locator('[role="row"][aria-rowindex]:not([aria-rowindex="1"])').all()) await expect(row).toContainText(today.typed);
  });
});

/** The ISO instant of a London day's midnight. */
function londonMidnight(isoDay: string) {
  for (const offset of [0, 1]) {
    const t = new Date(`${isoDay}T00:00:00Z`).getTime() - offset * 3600_000;
    const hm = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(t);
    if (hm === '00:00' && londonDayOf(new Date(t).toISOString()) === isoDay) return new Date(t).toISOString();
  }
  throw new Error(`no London midnight for ${isoDay}`);
}
function londonDayOf(iso: string) {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
}

// The record screens, by link: a device, a customer's account, its edit form, subscriptions and settings.
const RECORD_SCREENS: { role: string; email: string; edit: boolean }[] = [
  { role: 'administrator', email: 'admin@demo.test', edit: true },
  { role: 'read-only administrator', email: 'admin-readonly@demo.test', edit: false },
];

/** One word longer than a device page's History card is wide (the server takes up to 100 characters). */
const WIDE_SUPPLIER = `Wide-history-supplier-${'0123456789'.repeat(7)}`;

/**
 * A fixed demo device (the first by serial of those with a supplier and SIM details; devices the
 * earlier specs import are E2E...) whose History is wider than its card: its supplier is renamed to
 * one long word through the API, as an admin would by the form, so the History table scrolls
 * sideways. Done once; both roles' checks then see it.
 */
async function deviceWithWideHistory(): Promise<string> {
  const device = first(
    dbQuery<{ id: string; supplier: string }>(
      `select id, supplier from devices
        where simSerial is not null and phoneNumber is not null and simTypeId is not null and supplier is not null and serialNumber not like 'E2E%'
        order by serialNumber limit 1`,
    ),
  );
  if (device.supplier === WIDE_SUPPLIER) return device.id;
  const headers = { authorization: `Bearer ${await apiToken('admin@demo.test')}`, 'content-type': 'application/json' };
  const got = await fetch(`${BASE}/api/v1/device/get-by-id?id=${device.id}`, { headers });
  expect(got.status).toBe(200);
  const { etag } = (await got.json()) as { etag: string };
  const put = await fetch(`${BASE}/api/v1/device/${device.id}/general-details`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ etag, generalDetails: { supplier: WIDE_SUPPLIER } }),
  });
  expect(put.status, await put.text()).toBe(200);
  return device.id;
}

for (const s of RECORD_SCREENS) {
  test(`axe: 0 serious or critical violations and one h1 on the device and customer screens as ${s.role}`, async ({ page }) => {
    const deviceId = await deviceWithWideHistory();
    const customer = first(dbQuery<{ id: string }>('select id from customers order by name limit 1'));
    await signedInAs(page, s.email);
    // the device page: its History scrolls sideways, and the keyboard can reach and scroll it
    await page.goto(`/asset-management/${deviceId}`);
    const history = page.getByRole('region', { name: 'History' });
    await expect(history.getByRole('row').filter({ hasText: WIDE_SUPPLIER }).first()).toBeAttached();
    await expect.poll(() => history.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await expect(history).toHaveAttribute('tabindex', '0');
    await expectAccessibleScreen(page, `the device page as ${s.role}`);
    await history.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => history.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);

    const links = [
      `/customers/${customer.id}/account`,
      ...(s.edit ? [`/customers/${customer.id}/account/edit`] : []),
      `/customers/${customer.id}/subscriptions`,
      `/customers/${customer.id}/settings`,
    ];
    for (const link of links) {
      await page.goto(link);
      await expectAccessibleScreen(page, `${link} as ${s.role}`);
    }
  });
}

/** Shows `keys` in the focused pane and waits for its page. */
/** The keys' page shown in `pane` and loaded; `heading`, when given, is its title (the page asked for, not the one before it). */
async function show(page: Page, pane: Locator, keys: string, heading?: string) {
  await go(page, keys);
  const h1 = pane.locator('[role="tabpanel"]:visible h1:visible');
  await expect(heading ? h1.filter({ hasText: heading }) : h1).toBeVisible();
  await expect(pane.locator('[role="tabpanel"]:visible [aria-busy="true"]')).toHaveCount(0);
}

test('screenshots: every main screen in three panes across 1440 px and two across 1024 px', async ({ page }) => {
  await signedInAs(page, 'admin@demo.test');
  const panes = page.locator('[data-pane-id]');
  const shot = (name: string) => page.screenshot({ path: `.tmp/e2e-results/pane-${name}.png` });
  await show(page, panes.nth(0), 'ga');
  await page.keyboard.press('Alt+\\');
  await show(page, panes.nth(1), 'gc');
  await page.keyboard.press('Alt+\\');
  await show(page, panes.nth(2), 'gr');
  await panes.nth(0).getByRole('heading', { level: 1 }).click();
  for (let i = 0; i < 3; i++) await page.keyboard.press('Alt+,');
  await shot('1440-three-lists');
  // a record in each pane: a device, a customer, an alarm report
  for (const i of [0, 1, 2]) {
    const grid = panes.nth(i).locator('[role="grid"]:visible').first();
    await expect(grid.getByRole('row').nth(1)).toBeVisible();
    await grid.focus();
    await page.keyboard.press('Enter');
    await expect(panes.nth(i).locator('[role="tabpanel"]:visible h1:visible')).toBeVisible();
  }
  await expect(panes.nth(0).locator('[role="tabpanel"]:visible [aria-busy="true"]')).toHaveCount(0);
  await shot('1440-three-records');
  // the customer's tabs in the middle pane
  await panes.nth(1).locator('[role="tabpanel"]:visible h1:visible').click();
  for (const [keys, name] of [
    ['cs', 'subscriptions'],
    ['cd', 'customer-devices'],
    ['cy', 'customer-settings'],
    ['ce', 'customer-edit'],
  ] as const) {
    await show(page, panes.nth(1), keys);
    await shot(`1440-three-${name}`);
  }
  // the rest in the third pane
  await panes.nth(2).locator('[role="tabpanel"]:visible h1:visible').click();
  for (const [keys, name, heading] of [
    ['gu', 'users', PAGE_TITLES.persons],
    ['gb', 'bulk-update', PAGE_TITLES.bulkUpdate],
    ['gp', 'profile', PAGE_TITLES.editOwnProfile],
    ['gs', 'provider-settings', PAGE_TITLES.providerSettings],
    ['gl', 'audit', PAGE_TITLES.auditTrail],
  ] as const) {
    await show(page, panes.nth(2), keys, heading);
    await shot(`1440-three-${name}`);
  }

  // two panes across 1024: close the third pane's tabs
  await page.setViewportSize({ width: 1024, height: 768 });
  while ((await panes.count()) > 2) {
    await panes.nth(2).locator('[role="tabpanel"]:visible h1:visible').click();
    await page.keyboard.press('Alt+w');
  }
  await expect(panes).toHaveCount(2);
  await shot('1024-two-records');
  await panes.nth(0).locator('[role="tabpanel"]:visible h1:visible').click();
  for (const [keys, name, heading] of [
    ['ga', 'assets', PAGE_TITLES.assets],
    ['gr', 'alarm-reports', PAGE_TITLES.alarmReports],
    ['gu', 'users', PAGE_TITLES.persons],
    ['gl', 'audit', PAGE_TITLES.auditTrail],
  ] as const) {
    await show(page, panes.nth(0), keys, heading);
    await shot(`1024-two-${name}`);
  }
});
