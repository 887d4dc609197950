// Subscriptions: no lost update. B opens a customer's Subscriptions tab; A (another session, over the
// API) saves meanwhile; B's save finds the etags changed, stores nothing, says so, and 'Reload' shows
// A's numbers. Screenshots at 1440x900 and 1024x768 in .tmp/e2e-results/subscriptions-conflict-*.png.
import { test, expect, type Page } from '@playwright/test';
import { BASE, apiToken, dbQuery, signedInAs, screenshots } from './helpers';
import { MSG } from '../../src/shared/messages';

const shot = (page: Page, name: string) => screenshots(page, 'subscriptions-conflict', name);

type Subs = {
  CustomerEtag: string;
  DeviceSubscriptions: { Etag: string; Subscriptions: { Type: { Value: number; Name: string }; Purchased: number }[] };
  AppSubscriptions: {
    Etag: string;
    AppFeatures: Record<string, boolean | number>;
    Subscriptions: { Type: { Value: number; Name: string }; Purchased: number }[];
  };
};

test('the second saver sees the conflict instead of overwriting the first; Reload shows what was saved', async ({ page }) => {
  test.setTimeout(120_000);
  const token = await apiToken('admin@demo.test');
  const customer = dbQuery<{ id: string }>('select id from customers order by name limit 1')[0]!;
  const get = async () => {
    const res = await fetch(`${BASE}/ps-admin/customers/get-subscriptions?CustomerId=${customer.id}`, { headers: { Authorization: `Bearer ${token}` } });
    return (await res.json()) as Subs;
  };

  // B opens the tab
  await signedInAs(page, 'admin@demo.test');
  await page.goto(`/customers/${customer.id}/subscriptions`);
  const phone = page.getByRole('table', { name: 'Phone Subscriptions' });
  await expect(phone).toBeVisible();
  const before = await get();
  const pro = before.AppSubscriptions.Subscriptions.find((s) => s.Type.Name === 'Pro')!;
  const f = before.AppSubscriptions.AppFeatures;
  const aValue = pro.Purchased + 2;

  // A saves meanwhile (fresh etags, one more Pro subscription twice over)
  const put = await fetch(`${BASE}/api/v1/customer/subscriptions/update?customerId=${customer.id}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      appSubscriptions: {
        appFeatures: {
          isWelfareCheckEnabled: f.IsWelfareCheckEnabled,
          isFallDetectionEnabled: f.IsFallDetectionEnabled,
          isTravelSafeEnabled: f.IsTravelSafeEnabled,
          isTrackingEnabled: f.IsTrackingEnabled,
          isSureCamEnabled: f.IsSureCamEnabled,
          trackingInterval: f.TrackingInterval,
          isSosDisabled: f.IsSosDisabled,
        },
        subscriptions: before.AppSubscriptions.Subscriptions.map((s) => ({ appSubscriptionType: s.Type.Value, purchased: s === pro ? aValue : s.Purchased })),
      },
      appSubscriptionsEtag: before.AppSubscriptions.Etag,
    }),
  });
  expect(put.status).toBe(200);

  // B, still showing the old number, changes another field and saves
  const proInput = phone.getByRole('textbox', { name: `${MSG.productName} Pro subscription` });
  await expect(proInput).toHaveValue(String(pro.Purchased));
  await phone.getByRole('textbox', { name: 'Standard Mobile subscription' }).fill('7');
  await page.getByRole('button', { name: 'Save changes' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Subscriptions changed' });
  await expect(ask).toContainText(MSG.subscriptionsRefresh);
  await expect(page.getByText(MSG.subscriptionsUpdated)).toHaveCount(0);
  await shot(page, 'dialog');
  // nothing of B's was stored; A's number stands
  const after = await get();
  expect(after.AppSubscriptions.Subscriptions.find((s) => s.Type.Value === pro.Type.Value)!.Purchased).toBe(aValue);
  expect(after.AppSubscriptions.Etag).not.toBe(before.AppSubscriptions.Etag);

  // Reload: the form shows what is stored now
  await ask.getByRole('button', { name: 'Reload' }).click();
  await expect(ask).toHaveCount(0);
  await expect(proInput).toHaveValue(String(aValue));
  await shot(page, 'reloaded');
});
