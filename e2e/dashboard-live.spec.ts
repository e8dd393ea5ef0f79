import { createUser, expect, signInWithTokens, test } from './fixtures.ts';
import { addDeviceForUser, createDevice, ingestAlerts, ingestHealth } from './user-area-helpers.ts';

test('after a lost connection the dashboard catches up on the readings and alerts it missed', async ({
  page,
  context,
  consoleGuard,
}) => {
  // Going offline makes the browser report the failed reconnection attempts.
  consoleGuard.allow(/ERR_INTERNET_DISCONNECTED|WebSocket connection/);
  const user = await createUser(page);
  const band = await createDevice(page.request, `Band ${user.username}`);
  await addDeviceForUser(page.request, user, band, 'Band');
  await ingestHealth(page.request, band, { heartRate: 70, spo2: 97, temperature: 97.5, battery: 90 });
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard');
  await expect(page.getByTestId('heartRate-value')).toHaveText('70');
  const status = page.getByRole('status').filter({ hasText: /Live|Reconnecting/ });
  await expect(status).toHaveText('Live');

  await context.setOffline(true);
  await expect(status).toHaveText('Reconnecting…', { timeout: 30_000 });
  await ingestHealth(page.request, band, { heartRate: 88, spo2: 96, temperature: 97.6, battery: 89 });
  await ingestAlerts(page.request, band, [{ alertType: 'SOS', alertTitle: 'Missed while offline' }]);
  await expect(page.getByTestId('heartRate-value')).toHaveText('70');

  await context.setOffline(false);
  await expect(status).toHaveText('Live', { timeout: 30_000 });
  await expect(page.getByTestId('heartRate-value')).toHaveText('88');
  await expect(page.getByTestId('recent-alerts').getByRole('listitem').first()).toContainText(
    'Missed while offline',
  );
});

test('a chart whose code cannot be downloaded fails inside its card, and comes when tried again', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/ERR_FAILED|dynamically imported module/);
  const user = await createUser(page);
  const band = await createDevice(page.request, `Band ${user.username}`);
  await addDeviceForUser(page.request, user, band, 'Band');
  await ingestHealth(page.request, band, { heartRate: 70, spo2: 97, temperature: 97.5, battery: 90 });
  const chartCode = /\/assets\/trends-chart-[^/]+\.js$/;
  await page.route(chartCode, (route) => route.abort());
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard');

  const trends = page.locator('section[aria-labelledby="health-trends-title"]');
  await expect(trends.getByRole('alert')).toContainText('Could not load the chart');
  // The rest of the dashboard is there and live.
  await expect(page.getByTestId('heartRate-value')).toHaveText('70');
  await expect(page.getByRole('heading', { name: 'Recent Alerts' })).toBeVisible();
  await ingestHealth(page.request, band, { heartRate: 91, spo2: 96, temperature: 97.6, battery: 89 });
  await expect(page.getByTestId('heartRate-value')).toHaveText('91');

  await page.unroute(chartCode);
  await trends.getByRole('button', { name: 'Try again' }).click();
  await expect(trends.getByRole('img', { name: /Line chart/ })).toBeVisible();
});

test('the other screens fetched ahead while the browser is offline: no page error, and they come when the user moves there', async ({
  page,
  consoleGuard,
}) => {
  // The aborted fetch is logged by the browser; an unhandled rejection of the import is not allowed.
  consoleGuard.allow(/ERR_FAILED/);
  const user = await createUser(page);
  const pagesCode = /\/assets\/user-pages-[^/]+\.js$/;
  let aborted = 0;
  await page.route(pagesCode, (route) => {
    aborted += 1;
    return route.abort();
  });
  const prefetched = page.waitForRequest(pagesCode);
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard');
  await prefetched;
  await expect.poll(() => aborted).toBe(1);
  await expect(page.getByRole('heading', { name: 'Health Dashboard' })).toBeVisible();

  await page.unroute(pagesCode);
  await page.getByRole('button', { name: `Account menu for ${user.username}` }).click();
  await page.getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/dashboard\/profile$/);
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
});
