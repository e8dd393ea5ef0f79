import { createUser, expect, logInViaForm, test } from './fixtures.ts';

/** How long a toast stays, measured from when it shows to when it is gone (exit animation included). */
async function lifetime(page: import('@playwright/test').Page, text: string): Promise<number> {
  const toast = page.locator('.Toastify__toast').filter({ hasText: text });
  await expect(toast).toBeVisible();
  const shownAt = Date.now();
  // Away from the top-right corner: hovering pauses a toast.
  await page.mouse.move(5, 500);
  await expect(toast).toBeHidden({ timeout: 10_000 });
  return Date.now() - shownAt;
}

test('toasts close after 5 s in the sign-in area and after 3 s in the app shell', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/status of 401/);
  await page.goto('/signin');
  await page.getByLabel('Username or email').fill('nobody-here');
  await page.getByLabel('Password').fill('Wrong1Password');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  const authArea = await lifetime(page, 'Invalid username/email or password');
  expect(authArea).toBeGreaterThan(4_500);
  expect(authArea).toBeLessThan(7_500);

  const user = await createUser(page);
  await logInViaForm(page, user.username, user.password, /\/dashboard$/);
  await page.getByRole('button', { name: `Account menu for ${user.username}` }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  const appShell = await lifetime(page, 'Logged out successfully');
  expect(appShell).toBeGreaterThan(2_500);
  expect(appShell).toBeLessThan(4_500);
});

test('Alt+T moves keyboard focus to the toasts', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/status of 401/);
  await page.goto('/signin');
  await page.getByLabel('Username or email').fill('nobody-here');
  await page.getByLabel('Password').fill('Wrong1Password');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.locator('.Toastify__toast')).toBeVisible();
  await page.keyboard.press('Alt+KeyT');
  await expect
    .poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('.Toastify'))))
    .toBe(true);
});
