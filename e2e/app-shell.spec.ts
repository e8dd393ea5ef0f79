import { createUser, expect, signInWithTokens, test } from './fixtures.ts';

/**
 * The dashboard's static first screen (dashboard.html, packages/web/src/app/shells): its heading
 * is on screen before any of the app's code has run, the real page takes its place without a
 * shift, and a visitor without a session never sees it.
 */
test.describe("the dashboard's first screen", () => {
  // A phone, where the real page puts nothing above its heading (the offer of browser alerts comes
  // under the vitals there), so the heading must not move at all.
  test.use({ viewport: { width: 375, height: 740 } });

  test('shows its heading before the code runs, then gives way to the real page', async ({ page }) => {
    const user = await createUser(page);
    await signInWithTokens(page, user.username, user.password);
    let hold = true;
    const held: (() => void)[] = [];
    await page.route('**/assets/*.js', (route) => {
      if (hold) held.push(() => void route.continue());
      else void route.continue();
    });
    await page.goto('/dashboard', { waitUntil: 'commit' });
    const shell = page.locator('#app-shell');
    await expect(shell.getByRole('heading', { name: 'Health Dashboard' })).toBeVisible();
    await expect(shell.getByText('Monitor your health metrics in real-time')).toBeVisible();
    // Measured once the stylesheet is in: the browser paints nothing before it (it blocks rendering),
    // but a layout the test forces earlier places the heading by the browser's own styles.
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].every((link) => link.sheet),
    );
    const before = await shell.getByRole('heading').boundingBox();

    hold = false;
    for (const release of held) release();
    await expect(page.getByText('No devices connected')).toBeVisible();
    await expect(shell).toHaveCount(0);
    const after = await page.getByRole('heading', { name: 'Health Dashboard' }).boundingBox();
    expect(after).toEqual(before);
    // Nothing moved when the shell went, nor when the devices arrived.
    const shift = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) =>
            resolve(list.getEntries().reduce((sum, e) => sum + (e as unknown as { value: number }).value, 0)),
          ).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve(0), 500);
        }),
    );
    expect(shift).toBeLessThan(0.01);
  });

  test('in the theme the person chose, before the code runs', async ({ page }) => {
    const user = await createUser(page);
    await signInWithTokens(page, user.username, user.password);
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.route('**/assets/*.js', () => undefined);
    await page.goto('/dashboard', { waitUntil: 'commit' });
    await expect(page.locator('#app-shell h1')).toBeVisible();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await expect(page.locator('#app-shell')).toHaveCSS('background-color', 'oklch(0.129 0.042 264.695)');
  });

  test('is not shown to a visitor without a session, who goes to sign in', async ({ page }) => {
    await page.route('**/assets/*.js', () => undefined);
    await page.goto('/dashboard', { waitUntil: 'commit' });
    await expect(page.getByText('Loading VitalWatch…')).toBeVisible();
    await expect(page.locator('#app-shell')).toBeHidden();
    await page.unroute('**/assets/*.js');
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/signin$/);
  });
});
