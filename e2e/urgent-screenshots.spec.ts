import { createUser, expect, signInWithTokens, test } from './fixtures.ts';
import { addDeviceForUser, createDevice, ingestAlerts, ingestHealth } from './user-area-helpers.ts';

const DIR = '.tmp/screenshots';

for (const theme of ['light', 'dark'] as const) {
  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['mobile', { width: 375, height: 740 }],
  ] as const) {
    test(`urgent alerts screenshots: ${theme}, ${label}`, async ({ page, consoleGuard }) => {
      consoleGuard.allow(/status of 500/);
      const sockets: { close: () => Promise<void> }[] = [];
      await page.routeWebSocket(/\/socket\.io\//, (ws) => {
        ws.connectToServer();
        sockets.push(ws);
      });
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: theme });
      const user = await createUser(page);
      const band = await createDevice(page.request, `Band ${user.username}`);
      await addDeviceForUser(page.request, user, band, "Dad's band");
      await ingestHealth(page.request, band, { heartRate: 72, spo2: 97, temperature: 97.6, battery: 80 });
      await signInWithTokens(page, user.username, user.password);
      await page.goto('/dashboard');
      await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
      await page.mouse.move(5, 600);
      await ingestAlerts(page.request, band, [{ alertType: 'SOS' }, { alertType: 'FALL' }]);
      const banner = page.getByTestId('urgent-banner');
      // Both in (a phone's one line shows the newest of the two).
      await expect(page).toHaveTitle(/^\(2\) /);
      await expect(banner).toBeVisible();
      await expect(page.locator('.Toastify__toast')).toHaveCount(2);
      await page.evaluate(() =>
        Promise.allSettled(
          [...document.querySelectorAll('.Toastify__toast')].flatMap((t) =>
            t.getAnimations().map((a) => a.finished),
          ),
        ),
      );
      // The first vital card is not hidden by the bar.
      await expect(page.getByTestId('heartRate-value')).toBeInViewport();
      await page.screenshot({ path: `${DIR}/urgent-dashboard-${theme}-${label}.png` });

      await page.goto('/dashboard/profile');
      await page.getByRole('switch', { name: 'Sound for urgent alerts' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${DIR}/urgent-profile-${theme}-${label}.png` });
      await page.evaluate(() => window.scrollTo(0, 400));
      await page.route('**/api/v1/alert/all', (route) => route.fulfill({ status: 500, body: '' }));
      const refetched = page.waitForRequest('**/api/v1/alert/all');
      for (const ws of sockets.splice(0)) await ws.close();
      await refetched;
      await expect(banner.getByTestId('urgent-refresh-failed')).toBeVisible();
      await page.screenshot({ path: `${DIR}/urgent-refresh-failed-${theme}-${label}.png` });
      await page.getByRole('button', { name: /Account menu/ }).click();
      await page.screenshot({ path: `${DIR}/urgent-menu-${theme}-${label}.png` });
    });
  }
}
