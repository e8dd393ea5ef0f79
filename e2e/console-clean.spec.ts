import type { ConsoleMessage, Page } from '@playwright/test';
import { createUser, expect, signInWithTokens, test } from './fixtures.ts';

/**
 * Review 27, point 16: a newcomer's first look is clean. Loading the first pages logs no console
 * warning or error (React Router's "No HydrateFallback" warning was logged on every load).
 */
function collectConsole(page: Page): string[] {
  const logged: string[] = [];
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() === 'warning' || m.type() === 'error') logged.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => logged.push(`pageerror: ${e.message}`));
  return logged;
}

test('loading /, /signin and /dashboard (signed in) logs no console warning or error', async ({ page }) => {
  const user = await createUser(page);
  const logged = collectConsole(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Vital signs watched around the clock');
  await page.goto('/signin');
  await expect(page.getByRole('heading', { level: 1, name: 'Login' })).toBeVisible();
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Health Dashboard' })).toBeVisible();
  expect(logged).toEqual([]);
});
