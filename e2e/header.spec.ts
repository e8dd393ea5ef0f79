import { ADMIN, createUser, expect, signInWithTokens, test } from './fixtures.ts';

test('signed out: Home, Features, About; Log In everywhere except /signin, which offers Sign Up', async ({
  page,
}) => {
  await page.goto('/demo');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveText(['Home', 'Features', 'About']);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Log In' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign Up' })).toHaveCount(0);

  // From another page, Features navigates to / and scrolls to the section.
  await nav.getByRole('link', { name: 'Features' }).click();
  await expect(page).toHaveURL(/\/#features$/);
  await expect(page.locator('#features')).toBeInViewport();
  await nav.getByRole('link', { name: 'About' }).click();
  await expect(page.locator('#about')).toBeInViewport();

  await page.goto('/signin');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign Up' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Log In' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'VitalWatch home' })).toHaveAttribute('href', '/');
});

test('signed in as user: Dashboard, Board, Devices, Alerts; the menu shows the username, Profile and Sign out', async ({
  page,
}) => {
  const user = await createUser(page);
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveText(['Dashboard', 'Board', 'Devices', 'Alerts']);
  await expect(nav.getByRole('link', { name: 'Board', exact: true })).toHaveAttribute(
    'href',
    '/dashboard/board',
  );
  await expect(nav.getByRole('link', { name: 'Devices' })).toHaveAttribute('href', '/dashboard/devices');
  await expect(nav.getByRole('link', { name: 'Alerts' })).toHaveAttribute('href', '/dashboard/alerts');
  await expect(page.getByRole('link', { name: 'VitalWatch home' })).toHaveAttribute('href', '/dashboard');
  await page.getByRole('button', { name: `Account menu for ${user.username}` }).click();
  await expect(page.getByTestId('user-menu-username')).toHaveText(user.username);
  await page.getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/dashboard\/profile$/);
  await expect(page.getByRole('heading', { name: 'Profile Settings' })).toBeVisible();
});

test('signed in as admin: Dashboard, Users, Devices, Teams to the admin routes; no Profile item', async ({
  page,
}) => {
  await signInWithTokens(page, ADMIN.username, ADMIN.password);
  await page.goto('/admin-dashboard');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveText(['Dashboard', 'Users', 'Devices', 'Teams']);
  await expect(nav.getByRole('link', { name: 'Teams' })).toHaveAttribute('href', '/admin-dashboard/teams');
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/admin-dashboard');
  await expect(nav.getByRole('link', { name: 'Users' })).toHaveAttribute('href', '/admin-dashboard/users');
  await expect(nav.getByRole('link', { name: 'Devices' })).toHaveAttribute(
    'href',
    '/admin-dashboard/devices',
  );
  await expect(page.getByRole('link', { name: 'VitalWatch home' })).toHaveAttribute(
    'href',
    '/admin-dashboard',
  );
  await nav.getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  await page.getByRole('button', { name: 'Account menu for admin' }).click();
  await expect(page.getByTestId('user-menu-username')).toHaveText('admin');
  await expect(page.getByRole('link', { name: 'Profile' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
});

test('the theme toggle sets the class on <html> and survives a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  const html = page.locator('html');
  await expect(html).toHaveClass(/\blight\b/);
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(html).toHaveClass(/\bdark\b/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
  await page.reload();
  await expect(html).toHaveClass(/\bdark\b/);
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await expect(html).toHaveClass(/\blight\b/);
  await page.reload();
  await expect(html).toHaveClass(/\blight\b/);
});

test('the header turns translucent after scrolling more than 10 px', async ({ page }) => {
  await page.goto('/');
  const header = page.getByRole('banner');
  await expect(header).toHaveAttribute('data-translucent', 'false');
  // The landing page's lower sections load lazily: until they have, there is nothing to scroll.
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight))
    .toBeGreaterThan(50);
  await expect(async () => {
    await page.evaluate(() => window.scrollTo(0, 50));
    await expect(header).toHaveAttribute('data-translucent', 'true', { timeout: 1000 });
  }).toPass();
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(header).toHaveAttribute('data-translucent', 'false');
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the mobile menu opens and closes with the hamburger', async ({ page }) => {
    await page.goto('/demo');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    const close = page.getByRole('button', { name: 'Close menu' });
    await expect(close).toHaveAttribute('aria-expanded', 'true');
    const mobile = page.getByRole('navigation', { name: 'Mobile' });
    await expect(mobile.getByRole('link')).toHaveText(['Home', 'Features', 'About']);
    await mobile.getByRole('link', { name: 'Features' }).click();
    await expect(page).toHaveURL(/\/#features$/);
    await expect(mobile).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
    // Nothing overflows sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});
