import { ADMIN, createUser, expect, signInWithTokens, test } from './fixtures.ts';

const ROUTES = [
  '/',
  '/signin',
  '/signup',
  '/dashboard',
  '/dashboard/devices',
  '/admin-dashboard',
  '/admin-dashboard/users',
] as const;

/** Where each visitor ends up for each route (spec section 2, guard rules in order). */
const EXPECTED: Record<'guest' | 'user' | 'admin', Record<(typeof ROUTES)[number], string>> = {
  guest: {
    '/': '/',
    '/signin': '/signin',
    '/signup': '/signup',
    '/dashboard': '/signin',
    '/dashboard/devices': '/signin',
    '/admin-dashboard': '/signin',
    '/admin-dashboard/users': '/signin',
  },
  user: {
    '/': '/dashboard',
    '/signin': '/dashboard',
    '/signup': '/dashboard',
    '/dashboard': '/dashboard',
    '/dashboard/devices': '/dashboard/devices',
    '/admin-dashboard': '/dashboard',
    '/admin-dashboard/users': '/dashboard',
  },
  admin: {
    '/': '/admin-dashboard',
    '/signin': '/admin-dashboard',
    '/signup': '/admin-dashboard',
    '/dashboard': '/admin-dashboard',
    '/dashboard/devices': '/admin-dashboard',
    '/admin-dashboard': '/admin-dashboard',
    '/admin-dashboard/users': '/admin-dashboard/users',
  },
};

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

for (const who of ['guest', 'user', 'admin'] as const) {
  test(`guard matrix: ${who}`, async ({ page }) => {
    if (who === 'user') {
      const user = await createUser(page);
      await signInWithTokens(page, user.username, user.password);
    }
    if (who === 'admin') await signInWithTokens(page, ADMIN.username, ADMIN.password);
    for (const route of ROUTES) {
      await page.goto(route);
      await expect(page, `${who} visiting ${route}`).toHaveURL(
        new RegExp(`^[^/]+//[^/]+${escapeRegExp(EXPECTED[who][route])}$`),
      );
      // The page itself rendered (not just the spinner).
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    }
  });
}

test('a signed-in user following an in-app link to the admin area is sent back to /dashboard', async ({
  page,
}) => {
  const user = await createUser(page);
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard/alerts');
  await expect(page.getByRole('heading', { name: 'Alerts History' })).toBeVisible();
  await page.evaluate(() => {
    history.pushState({}, '', '/admin-dashboard/devices');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page).toHaveURL(/\/dashboard$/);
});
