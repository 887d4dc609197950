// The API reference (/api/docs) works in Chromium under the server's Content-Security-Policy: the
// page renders the published contract (/api/openapi.json) without a single CSP violation and
// without loading anything from another origin.
import { test, expect } from '@playwright/test';

test('the API reference renders the contract without CSP violations or other origins', async ({ page, baseURL }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: unknown[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample }));
  });
  const cspConsole: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspConsole.push(m.text());
  });
  const origins = new Set<string>();
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.protocol.startsWith('http')) origins.add(u.origin);
  });

  const res = await page.goto('/api/docs');
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
  // the document's title and some operations of it, rendered by the reference
  await expect(page.getByRole('heading', { name: 'Safety workspace API' }).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('/alarm-report/get-list').first()).toBeAttached();
  await expect(page.getByText('Live devices').first()).toBeAttached();
  await page.screenshot({ path: '.tmp/e2e-results/api-docs-1440.png' });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: '.tmp/e2e-results/api-docs-1024.png' });

  // The one event allowed: the reference's bundled validator (Zod) probes once whether eval works
  // (`try { new Function('') } catch {}`) and, as the policy forbids it, validates without it. The
  // policy keeps eval forbidden; the probe logs nothing to the console.
  const violations = (await page.evaluate(() => (window as unknown as { __csp: { blocked: string }[] }).__csp)).filter((v) => v.blocked !== 'eval');
  expect({ violations, console: cspConsole }).toEqual({ violations: [], console: [] });
  expect([...origins]).toEqual([new URL(baseURL!).origin]);
});
