import { test, expect } from '@playwright/test';
import { signedInAs, openPalette, dbQuery, apiToken, BASE, focusPage } from './helpers';
import { at, first } from '../helpers/lists';
import { MSG } from '../../src/shared/messages';
import { ROLE_IDS } from '../../src/shared/permissions';

type Row = { id: string; firstName: string; lastName: string };
/** Two staff persons of the demo data (throws when it has fewer). */
const staff = (): [Row, Row] => {
  const rows = dbQuery<Row>(
    `select p.id, p.firstName, p.lastName from persons p join personRoles r on r.personId = p.id
     where r.roleId = ? and p.email not like '%@demo.test' order by p.lastName, p.firstName limit 2`,
    ROLE_IDS.ArcSupervisorRole,
  );
  return [at(rows, 0), at(rows, 1)];
};

test('g u opens User Management', async ({ page }) => {
  await signedInAs(page, 'admin@demo.test');
  await focusPage(page);
  await page.keyboard.press('g');
  await page.keyboard.press('u');
  await expect(page).toHaveURL(/\/persons$/);
  await expect(page.getByRole('tab', { name: /Manage Users/, selected: true })).toBeVisible();
  await expect(page.getByPlaceholder(MSG.personSearchPlaceholder)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add User' })).toBeVisible();
});

test('palette opens persons into tabs, beside each other, and reload restores both panes', async ({ page }) => {
  const [a, b] = staff();
  await signedInAs(page, 'admin@demo.test');

  let input = await openPalette(page);
  await page.keyboard.type(`${a.firstName} ${a.lastName}`);
  await expect(page.getByRole('option', { name: new RegExp(`${a.firstName} ${a.lastName}`) }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(input).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/persons/edit/${a.id}$`));
  await expect(page.getByRole('tab', { name: new RegExp(`${a.firstName} ${a.lastName}`), selected: true })).toBeVisible();

  input = await openPalette(page);
  await page.keyboard.type(`${b.firstName} ${b.lastName}`);
  await expect(page.getByRole('option', { name: new RegExp(`${b.firstName} ${b.lastName}`) }).first()).toBeVisible();
  await page.keyboard.press('Control+Enter');
  await expect(page).toHaveURL(new RegExp(`/persons/edit/${b.id}$`));
  await expect(page.getByRole('tablist')).toHaveCount(2);

  await page.reload();
  await expect(page.getByRole('tablist')).toHaveCount(2);
  await expect(page.getByRole('tab', { name: new RegExp(`${a.firstName} ${a.lastName}`) })).toBeVisible();
  await expect(page.getByRole('tab', { name: new RegExp(`${b.firstName} ${b.lastName}`) })).toBeVisible();
});

test('palette, with the record search answering slowly: Enter acts on the text typed, not on records still listed from an earlier text', async ({ page }) => {
  const [a, b] = staff();
  await signedInAs(page, 'admin@demo.test');
  const slowSearch = () =>
    page.route('**/api/search?**', async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue().catch(() => undefined); // the palette aborted it: a newer text was typed
    });

  // a person found, then the whole text replaced by a command's name: Enter runs the command
  await openPalette(page);
  await page.keyboard.type(`${a.firstName} ${a.lastName}`);
  await expect(page.getByRole('option', { name: new RegExp(`${a.firstName} ${a.lastName}`) }).first()).toBeVisible();
  await slowSearch();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Go to User Management');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/persons$/);
  await page.unrouteAll({ behavior: 'ignoreErrors' });

  // a first name found, then the rest typed and Enter pressed at once: the person typed in full opens
  await openPalette(page);
  await page.keyboard.type(b.firstName);
  // the palette's rows for the first name (User Management, open behind it, has options of its own: the page size)
  await expect(page.getByRole('option', { name: new RegExp(b.firstName) }).first()).toBeVisible();
  await slowSearch();
  await page.keyboard.type(` ${b.lastName}`);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/persons/edit/${b.id}$`));
});

test('editing a person with a stale etag shows a clear message', async ({ page }) => {
  const [a] = staff();
  await signedInAs(page, 'admin@demo.test');
  await page.goto(`/persons/edit/${a.id}`);
  const firstNameField = page.getByLabel(/First name/);
  await expect(firstNameField).toHaveValue(a.firstName);

  // someone else saves the person meanwhile
  const token = await apiToken('admin@demo.test');
  const current = await (await fetch(`${BASE}/persons/get-by-id?Id=${a.id}`, { headers: { authorization: `Bearer ${token}` } })).json();
  const put = await fetch(`${BASE}/api/v1/person/${a.id}/identity-update`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      personId: a.id,
      person: {
        firstName: a.firstName,
        lastName: `${a.lastName}-x`,
        emailAddress: current.Person.Contact.EmailAddress,
        roleIds: current.Person.Roles.map((r: { Id: string }) => r.Id),
        etag: current.Etag,
      },
    }),
  });
  expect(put.status).toBe(200);

  await firstNameField.focus();
  await page.keyboard.press('End');
  await page.keyboard.type('e');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Workspace' }).getByText(MSG.staleEtag)).toBeVisible();
  // one error shows once: in the form, not again as a toast
  await expect(page.getByText(MSG.staleEtag)).toHaveCount(1);
  await expect(page.getByRole('region', { name: 'Notifications' }).getByText(MSG.staleEtag)).toHaveCount(0);
  const stored = first(dbQuery<{ firstName: string }>('select firstName from persons where id = ?', a.id));
  expect(stored.firstName).toBe(a.firstName);
});

test('a user without the add permission never sees Add User, and the server refuses anyway', async ({ page }) => {
  await signedInAs(page, 'admin-readonly@demo.test');
  await focusPage(page);
  await page.keyboard.press('g');
  await page.keyboard.press('u');
  await expect(page.getByPlaceholder(MSG.personSearchPlaceholder)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add User' })).toHaveCount(0);

  const token = await apiToken('admin-readonly@demo.test');
  const res = await fetch(`${BASE}/api/v1/person`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ person: { firstName: 'No', lastName: 'Way', emailAddress: 'no.way@example.com', roleIds: [ROLE_IDS.ArcControllerRole] } }),
  });
  expect(res.status).toBe(403);
  expect((await res.json()).Content.Message).toBe(MSG.forbidden);
  expect(dbQuery('select id from persons where email = ?', 'no.way@example.com')).toHaveLength(0);
});

test('add a person entirely by keyboard from the palette; the server stores it with its roles', async ({ page }) => {
  const email = `kb.added.${Date.now()}@arc.example`;
  await signedInAs(page, 'admin@demo.test');
  await openPalette(page);
  await page.keyboard.type('>add user');
  await expect(page.getByRole('option', { name: /Add user/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('tab', { name: /Add new user/, selected: true })).toBeVisible();
  await expect(page.getByLabel(/First name/)).toBeFocused();
  await page.keyboard.type('Keyboard');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Person');
  await page.keyboard.press('Tab');
  await page.keyboard.type(email);
  // the first role checkbox (ARC controller), by keyboard
  await page.keyboard.press('Tab');
  await expect(page.getByRole('checkbox', { name: 'ARC Controller' })).toBeFocused();
  await page.keyboard.press('Space');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter'); // submits the form from the e-mail field
  await expect(page.getByRole('region', { name: 'Notifications' }).getByText(MSG.personAdded)).toBeVisible();
  const rows = dbQuery<{ id: string; firstName: string; lastName: string }>('select id, firstName, lastName from persons where email = ?', email);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ firstName: 'Keyboard', lastName: 'Person' });
  const roles = dbQuery<{ roleId: string }>('select roleId from personRoles where personId = ?', first(rows).id).map((r) => r.roleId);
  expect(roles).toEqual([ROLE_IDS.ArcControllerRole]);
});

test('a locked person is shown Locked in the list and can be unlocked', async ({ page }) => {
  const locked = dbQuery<Row & { email: string }>('select id, firstName, lastName, email from persons where isLocked = 1 order by lastName limit 1')[0];
  test.skip(!locked, 'demo data has no locked person');
  if (!locked) return; // test.skip has ended the test already; this tells TypeScript
  await signedInAs(page, 'admin@demo.test');
  await focusPage(page);
  await page.keyboard.press('g');
  await page.keyboard.press('u');
  const search = page.getByPlaceholder(MSG.personSearchPlaceholder);
  await search.focus();
  await page.keyboard.type(locked.email);
  const row = page.getByRole('row', { name: new RegExp(`${locked.firstName} ${locked.lastName}`) });
  await expect(row).toBeVisible();
  await expect(row.getByText('Locked')).toBeVisible();
  await page.goto(`/persons/edit/${locked.id}`);
  await expect(page.getByRole('tab', { name: new RegExp(`${locked.firstName} ${locked.lastName}`), selected: true })).toBeVisible();
  await page.getByRole('button', { name: 'Unlock' }).click();
  await expect(page.getByRole('region', { name: 'Notifications' }).getByText(MSG.personUnlocked)).toBeVisible();
  expect(first(dbQuery<{ isLocked: number }>('select isLocked from persons where id = ?', locked.id)).isLocked).toBe(0);
});
