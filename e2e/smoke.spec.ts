import { expect, test } from './fixtures.ts';

test('the built app is served with a strict CSP and renders every public screen without console errors', async ({
  page,
}) => {
  const res = await page.goto('/');
  expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Vital signs watched around the clock');
  for (const [path, heading] of [
    ['/signup', 'Create Account'],
    ['/signin', 'Login'],
    ['/demo', 'Request a Demo'],
    ['/no-such-page', 'Page Not Found'],
    ['/pricing', 'Page Not Found'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }
});
