// Scheduled reports in Chromium against the real server, by keyboard: an ARC supervisor opens the
// alarm list (g r), narrows it with the search, saves it as a schedule (Alt+Shift+S, the Schedule…
// dialog), then opens Scheduled Reports (g h) and finds it there, without the demo ARC manager's
// schedules (a schedule is its creator's); the server stored the list's filter with it.
import { test, expect } from '@playwright/test';
import { signedInAs, dbQuery, focusPage } from './helpers';

test('ARC supervisor, keyboard only: filter the alarm list, schedule it, see it in Scheduled Reports', async ({ page }) => {
  test.setTimeout(150_000); // sign-in, the list with its charts, the dialog and the second page on a shared machine
  await signedInAs(page, 'arc-supervisor@demo.test');
  await focusPage(page);
  await page.keyboard.press('g');
  await page.keyboard.press('r');
  await expect(page).toHaveURL(/\/alarm-reports$/);
  const grid = page.getByRole('grid', { name: 'Alarm reports' });
  await expect(grid.getByRole('row').nth(1)).toBeVisible({ timeout: 30_000 });

  // a filter: the search box
  await grid.focus();
  await page.keyboard.press('/');
  const search = page.getByRole('searchbox', { name: 'Search alarm reports' });
  await expect(search).toBeFocused();
  await page.keyboard.type('an');
  await page.keyboard.press('Enter');

  // Alt+Shift+S: the Schedule… dialog, the name first
  await search.press('ArrowDown');
  await expect(grid).toBeFocused();
  await page.keyboard.press('Alt+Shift+S');
  const dialog = page.getByRole('dialog', { name: 'Schedule this alarm list' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Name')).toBeFocused();
  await expect(dialog).toContainText('saved filter');
  await page.keyboard.type('Supervisor weekly "an"');
  // Frequency: weekly (keyboard on the native select), the day stays Monday
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Frequency')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(dialog.getByLabel('Frequency')).toHaveValue('weekly');
  await expect(dialog.getByRole('status')).toHaveText('Weekly on Monday at 07:00');
  // the recipients start with the user's own address
  await expect(dialog.getByLabel('Recipients')).toHaveValue('arc-supervisor@demo.test');
  await dialog.getByLabel('Name').focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();

  // g h: the list, with the new schedule and the demo ones
  await focusPage(page);
  await page.keyboard.press('g');
  await page.keyboard.press('h');
  await expect(page).toHaveURL(/\/scheduled-reports$/);
  const table = page.getByRole('table', { name: 'Scheduled reports' });
  const row = table.getByRole('row', { name: /Supervisor weekly/ });
  await expect(row).toContainText('Weekly on Monday at 07:00');
  await expect(row).toContainText('arc-supervisor@demo.test');
  await expect(row).toContainText('Not run yet');
  await expect(row.locator('[data-label="Report"]')).toHaveText('Alarm list');
  await expect(table).not.toContainText('Daily real incidents'); // the ARC manager's: not the supervisor's to see

  // the server kept the list's filter (not its date range)
  const [stored] = dbQuery<{ filters: string; frequency: string; dayOfWeek: number }>(
    `select filters, frequency, dayOfWeek from reportSchedules where name = ?`,
    'Supervisor weekly "an"',
  );
  expect(stored).toMatchObject({ frequency: 'weekly', dayOfWeek: 1 });
  const filters = JSON.parse(stored!.filters);
  expect(filters.searchValue).toBe('an');
  expect(filters).not.toHaveProperty('alarmClosedDateRangeOption');

  // keyboard: Tab reaches the row's actions; History shows the (empty) run history
  await row.getByRole('button', { name: /Run history of Supervisor weekly/ }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: /Run history of Supervisor weekly/ })).toContainText('No runs yet.');
});
