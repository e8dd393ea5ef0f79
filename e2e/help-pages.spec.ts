import type { Page } from '@playwright/test';
import { createUser, expect, signInWithTokens, test } from './fixtures.ts';

/** Review 27, point 15: every footer link opens a real page, signed in or out. */
const FOOTER_PAGES = [
  ['User Guide', '/guide', 'User Guide'],
  ['FAQ', '/faq', 'Frequently Asked Questions'],
  ['Support', '/support', 'Support'],
  ['About', '/about', 'About VitalWatch'],
] as const;

async function followFooterLinks(page: Page, start: string) {
  const footer = page.getByRole('contentinfo');
  for (const [label, path, heading] of FOOTER_PAGES) {
    await page.goto(start);
    await footer.getByRole('link', { name: label, exact: true }).click();
    await expect(page).toHaveURL(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expect(page).toHaveTitle(`${heading} · VitalWatch`);
  }
}

test('every footer link opens a page with its heading; nothing links to pages the product lacks', async ({
  page,
}) => {
  await page.goto('/');
  const footerLinks = page.getByRole('contentinfo').getByRole('link');
  await expect(footerLinks).toHaveCount(5);
  const hrefs = await footerLinks.evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  expect(hrefs.sort()).toEqual(['/about', '/docs', '/faq', '/guide', '/support']);
  await followFooterLinks(page, '/');

  // The API reference is the server's Swagger UI page, not an app route (its own console is not the app's).
  const apiReference = page.getByRole('contentinfo').getByRole('link', { name: 'API reference' });
  await expect(apiReference).toHaveAttribute('href', '/docs');
  const docs = await page.request.get('/docs');
  expect(docs.status()).toBe(200);
  expect(await docs.text()).toContain('swagger-ui');
});

test('the help pages are there for a signed-in user too', async ({ page }) => {
  const user = await createUser(page);
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Health Dashboard' })).toBeVisible();
  await followFooterLinks(page, '/dashboard');
});

test("the user guide's alert rules come from the server's defaults", async ({ page }) => {
  await page.goto('/guide');
  const alerts = page.getByRole('region', { name: 'What each alert means' });
  await expect(
    alerts.getByText(
      'When it stays below 95 % for 30 seconds. At 91 % or lower it is raised at once, with high priority.',
    ),
  ).toBeVisible();
  await expect(alerts.getByText('As soon as it is below 20 %.')).toBeVisible();
  await page
    .getByRole('navigation', { name: 'On this page' })
    .getByRole('link', { name: 'Privacy and your data' })
    .click();
  await expect(page).toHaveURL('/guide#privacy');
  await expect(page.getByRole('heading', { name: 'Privacy and your data' })).toBeInViewport();
});
