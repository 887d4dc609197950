import { test, expect } from '@playwright/test';
import { signedInAs, dbQuery, focusPage } from './helpers';
import { first } from '../helpers/lists';
import { MSG } from '../../src/shared/messages';

test('keyboard pane work: split, move a tab, resize, unsaved-changes guard on close, cheat sheet', async ({ page }) => {
  const p = first(
    dbQuery<{ id: string; firstName: string; lastName: string }>(
      "select id, firstName, lastName from persons where email like '%@arc.example' order by lastName limit 1",
    ),
  );
  await signedInAs(page, 'admin@demo.test');
  await focusPage(page);
  await page.keyboard.press('g');
  await page.keyboard.press('u');
  await expect(page.getByRole('tab', { name: /Manage Users/, selected: true })).toBeVisible();

  // open a person in the same pane, then move that tab to the other pane (splitting)
  await page.goto(`/persons/edit/${p.id}`);
  const editTab = page.getByRole('tab', { name: new RegExp(`${p.firstName} ${p.lastName}`) });
  await expect(editTab).toBeVisible();
  await expect(page.getByRole('tablist')).toHaveCount(1);
  await page.keyboard.press('Alt+m');
  await expect(page.getByRole('tablist')).toHaveCount(2);
  await expect(
    page
      .getByRole('tablist')
      .nth(1)
      .getByRole('tab', { name: new RegExp(`${p.firstName}`) }),
  ).toBeVisible();

  // the splitter is a window splitter the keyboard can move
  const sep = page.getByRole('separator').first();
  const before = Number(await sep.getAttribute('aria-valuenow'));
  await sep.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => Number(await sep.getAttribute('aria-valuenow'))).toBeGreaterThan(before);

  // unsaved changes: closing asks the spec's question; Escape keeps the tab
  const firstNameField = page.getByLabel(/First name/);
  await firstNameField.focus();
  await page.keyboard.press('End');
  await page.keyboard.type('x');
  await page.keyboard.press('Alt+w');
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByText(MSG.unsavedChanges)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(editTab).toBeVisible();
  await expect(firstNameField).toHaveValue(`${p.firstName}x`);

  // the cheat sheet lists the registry's shortcuts (from outside any field: focus the tab strip)
  await editTab.focus();
  await page.keyboard.press('Shift+Slash'); // '?' on a UK/US keyboard
  const sheet = page.getByRole('dialog');
  await expect(sheet.getByText('Go to User Management')).toBeVisible();
  await expect(sheet.getByText('Close tab', { exact: true })).toBeVisible();
  await expect(sheet.getByText('Split pane right')).toBeVisible();
});

test("split panes follow the pane being used: typing in the left pane, Alt+W closes the left pane's tab", async ({ page }) => {
  const p = first(
    dbQuery<{ id: string; firstName: string; lastName: string }>(
      "select id, firstName, lastName from persons where email like '%@arc.example' order by lastName limit 1",
    ),
  );
  await signedInAs(page, 'admin@demo.test');
  await page.goto('/persons');
  await expect(page.getByRole('tab', { name: /Manage Users/, selected: true })).toBeVisible();
  await page.goto(`/persons/edit/${p.id}`);
  const editTab = page.getByRole('tab', { name: new RegExp(`${p.firstName} ${p.lastName}`) });
  await expect(editTab).toBeVisible();
  await expect(editTab).not.toContainText('Edit '); // tab titles drop the repeated 'Edit '
  await page.keyboard.press('Alt+m'); // the edit tab moves to a new right pane, which has the focus
  const left = page.getByRole('region', { name: 'Pane 1' });
  const right = page.getByRole('region', { name: 'Pane 2' });
  await expect(right.getByRole('tab', { name: new RegExp(p.firstName) })).toBeVisible();
  await expect(right).toHaveAttribute('data-focused', 'true');

  // Click and type in the left pane's page (rendered through a portal): that pane is now the one in use.
  const search = left.getByRole('searchbox');
  await search.click();
  await page.keyboard.type('zz');
  await expect(left).toHaveAttribute('data-focused', 'true');
  await page.keyboard.press('Alt+w');
  // The left pane's tab closed (the landing tab opened at sign-in is left there); the right one stays.
  await expect(page.getByRole('tab', { name: /Manage Users/ })).toHaveCount(0);
  await expect(left.getByRole('tab', { name: 'Asset Management', selected: true })).toBeVisible();
  await expect(right.getByRole('tab', { name: new RegExp(p.firstName) })).toBeVisible();

  // And back: clicking into the right pane's form and pressing Alt+W closes the tab there.
  await right.getByLabel(/First name/).click();
  await expect(right).toHaveAttribute('data-focused', 'true');
  await page.keyboard.press('Alt+w');
  await expect(editTab).toHaveCount(0);
  await expect(page.getByRole('tablist')).toHaveCount(1);
  await expect(page.getByRole('tab', { name: 'Asset Management' })).toBeVisible();
});

test('person list rows are links; j / k / Enter go through the command dispatcher', async ({ page }) => {
  await signedInAs(page, 'admin@demo.test');
  await page.goto('/persons');
  const grid = page.getByRole('grid', { name: 'Users' });
  const first = grid.getByRole('link').first();
  await expect(first).toHaveAttribute('href', /^\/persons\/edit\/[0-9a-f-]+$/);
  const href = await grid.getByRole('link').nth(1).getAttribute('href');
  await grid.focus();
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${href}$`));
});
