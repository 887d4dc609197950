// Customers in real Chromium against the real server, driven by the keyboard shortcuts:
// g c → the list, c n → Create Account (an internal customer), the stale-etag path of the edit
// form, c a / c y → Account and Settings (pausing e-mail, an administrator's e-mail held, the
// release dialog with the count), c l → Allocate Devices by serial; the read-only admin sees no
// Create Account. Screenshots at 1440x900 and 1024x768 in .tmp/e2e-results/customers-*.png.
import { test, expect, type Page } from '@playwright/test';
import { BASE, apiToken, dbQuery, signedInAs, focusPage, screenshots } from './helpers';
import { MSG } from '../../src/shared/messages';

const shot = (page: Page, name: string) => screenshots(page, 'customers', name);

/** Signed in, with the landing tab loaded (its page may move focus while it loads). */
async function signedIn(page: Page, email: string) {
  await signedInAs(page, email);
  await expect(page.getByRole('tabpanel').first()).toBeVisible();
  await expect(page.getByRole('tabpanel').first().getByRole('row').nth(1)).toBeVisible(); // the landing list has its rows
  // a request still in flight settles first; a page that keeps polling does not hold the test up
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
}

/** Presses a key sequence such as 'g c' outside any field. */
async function keys(page: Page, seq: string) {
  await focusPage(page);
  for (const k of seq.split(' ')) await page.keyboard.press(k);
}

async function api<T>(token: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${BASE}${path}`, {
    method: init.method ?? 'GET',
    headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

type Details = { Id: string; Name: string; Etag: string; TenantId: string; PortalId: string | null; IsMigratedAccount: boolean };

test('admin: create an internal customer, stale edit, pause and release e-mail, allocate a scanned box of devices — by keyboard', async ({ page }) => {
  test.setTimeout(120_000);
  const token = await apiToken('admin@demo.test');
  const name = `E2E Internal ${Date.now()}`;
  await signedIn(page, 'admin@demo.test');

  // g c → Customers
  await keys(page, 'g c');
  await expect(page).toHaveURL(/\/customers$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();
  await expect(page.getByRole('grid', { name: 'Customers' }).getByRole('row').nth(1)).toBeVisible();
  await shot(page, 'list');

  // c n → Create Account; an internal account, migrated, with a portal reference
  await keys(page, 'c n');
  await expect(page).toHaveURL(/\/customers\/create$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Create Account' })).toBeVisible();
  await page.getByLabel('Internal (testing)').check();
  // internal accounts lock the URN, managers, tier and status
  await expect(page.getByLabel('Salesforce URN')).toHaveAttribute('readonly', '');
  await expect(page.getByLabel('Account manager')).toHaveAttribute('readonly', '');
  await page.getByLabel('Account name').fill(name);
  await page.getByRole('radio', { name: 'Yes', exact: true }).check();
  const portal = page.getByLabel('Portal reference');
  await portal.fill('12ab');
  await portal.press('Tab');
  await expect(page.getByText(MSG.portalRefNumber)).toBeVisible();
  const reference = String(900000 + (Date.now() % 99999));
  await portal.fill(reference);
  await page.getByLabel('Phone number').fill('447700900123');
  await page.getByLabel('Phone number').press('Tab');
  await expect(page.getByLabel('Phone number')).toHaveValue('07700 900123');
  await shot(page, 'create');
  await page.getByLabel('Account name').press('Enter'); // submits the form
  await expect(page.getByText(MSG.customerCreated)).toBeVisible();
  await expect(page).toHaveURL(/\/customers\/[0-9a-f-]{36}\/account$/);
  const id = /\/customers\/([0-9a-f-]{36})\/account$/.exec(page.url())![1]!;
  await expect(page.getByRole('tabpanel').getByRole('heading', { level: 1, name })).toBeVisible();

  // the server stored it: get-by-id answers it
  const byId = await api<{ id: string; name: string; reference: string | null; migrated: boolean }>(token, `/api/v1/customer/get-by-id?id=${id}`);
  expect(byId.status).toBe(200);
  expect(byId.body).toMatchObject({ id, name, reference, migrated: true });
  await shot(page, 'account');

  // edit with a stale etag: someone else saves first; the form says so and reloads
  await page.getByRole('button', { name: 'Edit account' }).click();
  await expect(page).toHaveURL(new RegExp(`/customers/${id}/account/edit$`));
  const nameBox = page.getByLabel('Account name');
  await expect(nameBox).toHaveValue(name);
  const details = (await api<Details>(token, `/ps-admin/customers/get-details?CustomerId=${id}`)).body;
  const other = await api(token, `/api/v1/customer/update?customerId=${id}`, {
    method: 'PUT',
    body: { etag: details.Etag, customerAccount: { name: `${name} (other)`, isMigratedAccount: true, portalReferenceNumber: reference } },
  });
  expect(other.status).toBe(200);
  await nameBox.fill(`${name} edited`);
  await nameBox.press('Enter');
  await expect(page.getByText(MSG.staleEtag)).toBeVisible();
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(nameBox).toHaveValue(`${name} (other)`);
  await nameBox.fill(`${name} edited`);
  await nameBox.press('Enter');
  await expect(page.getByText(MSG.customerUpdated)).toBeVisible();
  await expect.poll(async () => (await api<Details>(token, `/ps-admin/customers/get-details?CustomerId=${id}`)).body.Name).toBe(`${name} edited`);

  // c y → Settings (System): pause e-mail delivery (nothing waits: no question)
  await keys(page, 'c y');
  await expect(page).toHaveURL(new RegExp(`/customers/${id}/settings$`));
  const pause = page.getByRole('switch', { name: 'Pause email delivery' });
  await pause.focus();
  await page.keyboard.press('Space');
  await expect(page.getByText(MSG.settingsUpdated)).toBeVisible();
  await expect(pause).toBeChecked();

  // c a → Account: add an administrator; the set-password e-mail waits while delivery is paused
  await keys(page, 'c a');
  await expect(page).toHaveURL(new RegExp(`/customers/${id}/account$`));
  await page.getByRole('button', { name: 'Add administrator' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add administrator' });
  await dialog.getByLabel('Email').fill('not-an-email');
  await dialog.getByLabel('First Name').fill('Ada');
  await dialog.getByLabel('Last Name').fill('Admin');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog.getByText('Please enter a valid email')).toBeVisible();
  const email = `ada.${Date.now()}@e2e.test`;
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Email').press('Enter');
  await expect(page.getByText(MSG.administratorAdded)).toBeVisible();
  await expect(page.getByRole('grid', { name: 'Administrators' }).getByText(email)).toBeVisible();
  await expect.poll(() => dbQuery<{ n: number }>('select count(*) as n from outbox where heldTenantId = ? and sentAt is null', details.TenantId)[0]!.n).toBe(1);

  // c y → Settings: releasing asks first, with the count and the warning
  await keys(page, 'c y');
  await expect(page.getByTestId('email-backlog')).toHaveText('1 e-mail waiting to be sent.');
  await shot(page, 'settings');
  await page.getByRole('switch', { name: 'Pause email delivery' }).click();
  const ask = page.getByRole('alertdialog');
  await expect(ask).toContainText('All 1 paused emails will be sent immediately.');
  await expect(ask).toContainText('Some customers have asked not to receive emails.');
  await ask.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(MSG.settingsUpdated)).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Pause email delivery' })).not.toBeChecked();
  await expect.poll(() => dbQuery<{ n: number }>('select count(*) as n from outbox where heldTenantId = ?', details.TenantId)[0]!.n).toBe(0);

  // c l → Allocate Devices: a box of New devices of one type scanned at scanner speed; no order number and
  // no subscription → both questions in one
  const box = dbQuery<{ id: string; serialNumber: string }>(
    `select id, serialNumber from devices where customerId is null and status = 1 and type = (
       select type from devices where customerId is null and status = 1 group by type order by count(*) desc, type limit 1)
     order by serialNumber limit 20`,
  );
  expect(box.length).toBeGreaterThanOrEqual(5);
  const device = box[0]!;
  await keys(page, 'c l');
  await expect(page).toHaveURL(new RegExp(`/customers/${id}/devices/allocate$`));
  const serialBox = page.getByRole('textbox', { name: 'Serial number' });
  await expect(serialBox).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText(MSG.noSerialEntered)).toBeVisible();
  await page.keyboard.type(device.serialNumber);
  await page.keyboard.press('Enter');
  await page.keyboard.type('NO-SUCH-SERIAL-77');
  await page.keyboard.press('Enter');
  await page.keyboard.type(device.serialNumber);
  await page.keyboard.press('Enter');
  await expect(page.getByText(MSG.deviceAlreadyAdded)).toBeVisible();
  const table = page.getByRole('table', { name: 'Devices to allocate' });
  await expect(table.getByRole('row').filter({ hasText: 'NO-SUCH-SERIAL-77' })).toContainText('Not found');
  await expect(table.getByRole('checkbox', { name: 'Allocate NO-SUCH-SERIAL-77' })).toBeDisabled();
  await expect(table.getByRole('checkbox', { name: `Allocate ${device.serialNumber}` })).toBeChecked();
  // the rest of the box, one scan after the other without waiting (a scanner types serial + Enter in milliseconds)
  await page.keyboard.type(
    box
      .slice(1)
      .map((d) => `${d.serialNumber}\n`)
      .join(''),
  );
  await expect(page.getByRole('button', { name: `Allocate (${box.length})`, exact: true })).toBeVisible();
  await expect(table.getByRole('checkbox', { checked: true })).toHaveCount(box.length + 1); // + select all
  await expect(serialBox).toBeFocused();
  await shot(page, 'allocate');
  await page.getByRole('button', { name: `Allocate (${box.length})`, exact: true }).click();
  const question = page.getByRole('alertdialog');
  await expect(question).toContainText(/^.*Order number is missing and allocation of .+ exceeds subscription\. Are you sure\?/);
  await question.getByRole('button', { name: 'Allocate' }).click();
  await expect(page.getByText(MSG.deviceAllocated)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/customers/${id}/devices$`));
  await expect(page.getByRole('grid', { name: 'Customer devices' }).getByText(device.serialNumber)).toBeVisible();
  expect(dbQuery<{ customerId: string; status: number }>('select customerId, status from devices where id = ?', device.id)[0]).toEqual({
    customerId: id,
    status: 3,
  });
  expect(dbQuery<{ n: number }>('select count(*) as n from devices where customerId = ? and status = 3', id)[0]!.n).toBe(box.length);
  await shot(page, 'devices');

  // c s → Subscriptions: the allocated type shows with its highlight
  await keys(page, 'c s');
  await expect(page).toHaveURL(new RegExp(`/customers/${id}/subscriptions$`));
  await expect(page.getByRole('table', { name: 'Device Subscriptions' }).locator('tr[data-tone="error"]')).toHaveCount(1);
  await shot(page, 'subscriptions');
  // Disable SOS only through its confirmation
  const sos = page.getByRole('switch', { name: 'Disable SOS' });
  await sos.click();
  const sosAsk = page.getByRole('alertdialog', { name: 'IMPORTANT: This feature will DISABLE the SOS button' });
  await sosAsk.getByRole('button', { name: 'Cancel' }).click();
  await expect(sos).not.toBeChecked();
  await sos.click();
  await sosAsk.getByRole('button', { name: 'Disable SOS' }).click();
  await expect(sos).toBeChecked();
  // tracking: the interval shows while tracking is on and must be at least 5
  await page.getByRole('switch', { name: 'Tracking', exact: true }).click();
  const interval = page.getByRole('textbox', { name: 'Tracking interval' });
  await interval.fill('3');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(MSG.atLeast5)).toBeVisible();
  await interval.fill('15');
  // the subscription (0) is below what is allocated (1): 'Change Device Configuration' asks first
  await page.getByRole('button', { name: 'Save changes' }).click();
  const over = page.getByRole('alertdialog', { name: 'Change Device Configuration' });
  await expect(over).toContainText('allocated in this customers account than the subscription allows for. Are you sure you want to save?');
  await over.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(MSG.subscriptionsUpdated)).toBeVisible();
  expect(
    dbQuery<{ isSosDisabled: number; isTrackingEnabled: number; trackingInterval: number }>(
      'select isSosDisabled, isTrackingEnabled, trackingInterval from customers where id = ?',
      id,
    )[0],
  ).toEqual({ isSosDisabled: 1, isTrackingEnabled: 1, trackingInterval: 15 });
});

test('c n: a customer account from a CRM account (search, fill and lock), by keyboard', async ({ page }) => {
  const crm = dbQuery<{ id: string; name: string; urn: string; city: string | null }>(
    `select id, name, urn, city from crmAccounts
     where urn is not null and urn not in (select salesforceUrn from customers where salesforceUrn is not null)
     order by name limit 1`,
  )[0]!;
  await signedIn(page, 'admin@demo.test');
  await keys(page, 'g c');
  await expect(page).toHaveURL(/\/customers$/);
  await keys(page, 'c n');
  await expect(page).toHaveURL(/\/customers\/create$/);
  const search = page.getByRole('searchbox', { name: 'Search CRM accounts' });
  await expect(search).toBeFocused();
  await page.keyboard.type(crm.name);
  const results = page.getByRole('list', { name: 'CRM accounts' });
  await expect(results.getByRole('button', { name: new RegExp(crm.urn) })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(page.locator(':focus')).toContainText(crm.name);
  await page.keyboard.press('Enter');
  await expect(page.getByText(`Linked CRM account: ${crm.name}`)).toBeVisible();
  const form = page.getByRole('form', { name: 'Create Account' });
  // filled and locked: the URN and the address come from the CRM
  await expect(form.getByLabel('Salesforce URN')).toHaveValue(crm.urn);
  await expect(form.getByLabel('Salesforce URN')).toHaveAttribute('readonly', '');
  await expect(form.getByLabel('City')).toHaveAttribute('readonly', '');
  await expect(form.getByLabel('Account name')).toHaveValue(crm.name);
  await form.getByLabel('Status').selectOption({ index: 1 });
  await form.getByRole('radio', { name: 'No', exact: true }).check();
  await form.getByRole('button', { name: 'Create Account', exact: true }).click();
  await expect(page.getByText(MSG.customerCreated)).toBeVisible();
  await expect(page).toHaveURL(/\/customers\/[0-9a-f-]{36}\/account$/);
  const stored = dbQuery<{ salesforceUrn: string; salesforceId: string; city: string | null; status: number | null }>(
    'select salesforceUrn, salesforceId, city, status from customers where salesforceUrn = ?',
    crm.urn,
  );
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({ salesforceUrn: crm.urn, salesforceId: crm.id, city: crm.city });
  expect(stored[0]!.status).not.toBeNull();
});

test('the duplicates check: an existing name opens "Account already exists?"; Create duplicate account creates it', async ({ page }) => {
  const existing = dbQuery<{ id: string; name: string }>('select id, name from customers order by name limit 1')[0]!;
  await signedIn(page, 'admin@demo.test');
  await keys(page, 'g c');
  await expect(page).toHaveURL(/\/customers$/);
  await keys(page, 'c n');
  await page.getByLabel('Internal (testing)').check();
  await page.getByLabel('Account name').fill(existing.name);
  await page.getByRole('radio', { name: 'No', exact: true }).check();
  await page.getByRole('button', { name: 'Create Account', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Account already exists?' });
  await expect(dialog.getByRole('row').filter({ hasText: existing.name })).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Open' }).first()).toHaveAttribute('href', new RegExp(`/customers/[0-9a-f-]{36}/account$`));
  // Cancel creates nothing
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/customers\/create$/);
  const before = dbQuery<{ n: number }>('select count(*) as n from customers where name = ?', existing.name)[0]!.n;
  await page.getByRole('button', { name: 'Create Account', exact: true }).click();
  await page.getByRole('dialog', { name: 'Account already exists?' }).getByRole('button', { name: 'Create duplicate account' }).click();
  await expect(page.getByText(MSG.customerCreated)).toBeVisible();
  await expect(page).toHaveURL(/\/customers\/[0-9a-f-]{36}\/account$/);
  expect(dbQuery<{ n: number }>('select count(*) as n from customers where name = ?', existing.name)[0]!.n).toBe(before + 1);
});

test('the read-only admin sees the list and exports it, but has no Create Account; a bad id is a bad URL', async ({ page }) => {
  await signedIn(page, 'admin-readonly@demo.test');
  await keys(page, 'g c');
  await expect(page).toHaveURL(/\/customers$/);
  await expect(page.getByRole('grid', { name: 'Customers' }).getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create Account' })).toHaveCount(0);
  await keys(page, 'c n');
  await expect(page).toHaveURL(/\/customers$/);
  // export: the spec's question with the count, then an .xlsx
  const count = dbQuery<{ n: number }>('select count(*) as n from customers')[0]!.n;
  await page.getByRole('button', { name: 'Export' }).click();
  const ask = page.getByRole('alertdialog');
  await expect(ask).toContainText(`Are you sure you want to export data for ${count.toLocaleString('en-GB')} customers?`);
  const download = page.waitForEvent('download');
  await ask.getByRole('button', { name: 'Export' }).click();
  expect((await download).suggestedFilename()).toMatch(/^Customers_.*\.xlsx$/);
  // a bad customer id in the URL
  await page.goto('/customers/not-a-customer/account');
  await expect(page.getByText(MSG.badUrl)).toBeVisible();
  await page.goto('/customers/aaaaaaaa-0000-4000-8000-00000000abcd/subscriptions');
  await expect(page.getByText(MSG.badUrl)).toBeVisible();
});
