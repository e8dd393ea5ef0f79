import { createUser, expect, logInViaForm, test } from './fixtures.ts';

/**
 * A toast's timer and what it does: the duration it was given (its progress bar runs that long,
 * then closes it), and how long it really stayed. Only the lower bound of the real lifetime is
 * checked: a loaded machine can only make it longer.
 */
async function lifetime(page: import('@playwright/test').Page, text: string) {
  const toast = page.locator('.Toastify__toast').filter({ hasText: text });
  await expect(toast).toBeVisible();
  const shownAt = Date.now();
  // Away from the top-right corner: hovering pauses a toast.
  await page.mouse.move(5, 500);
  const timer = await toast
    .getByRole('progressbar', { name: 'notification timer', includeHidden: true })
    .evaluate((bar) => (bar as HTMLElement).style.animationDuration);
  await expect(toast).toBeHidden({ timeout: 15_000 });
  return { timer, stayedMs: Date.now() - shownAt };
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
  expect(authArea.timer).toBe('5000ms');
  expect(authArea.stayedMs).toBeGreaterThan(4_500);

  const user = await createUser(page);
  await logInViaForm(page, user.username, user.password, /\/dashboard$/);
  await page.getByRole('button', { name: `Account menu for ${user.username}` }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  const appShell = await lifetime(page, 'Logged out successfully');
  expect(appShell.timer).toBe('3000ms');
  expect(appShell.stayedMs).toBeGreaterThan(2_500);
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
