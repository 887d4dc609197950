// Create Account opens with its heading in view, at both screen sizes.
import { test, expect } from '@playwright/test';
import { signedInAs } from './helpers';

for (const size of [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
]) {
  test(`Create Account: the heading is in view on load at ${size.width}x${size.height}`, async ({ page }) => {
    await page.setViewportSize(size);
    await signedInAs(page, 'admin@demo.test');
    await page.goto('/customers/create');
    const heading = page.getByRole('heading', { level: 1, name: 'Create Account' });
    await expect(heading).toBeVisible();
    await page.waitForTimeout(300);
    await expect(heading).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: `.tmp/e2e-results/customer-create-${size.width}.png` });
  });
}
