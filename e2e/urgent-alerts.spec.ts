import type { Page } from '@playwright/test';
import { createUser, expect, signInWithTokens, type TestUser, test } from './fixtures.ts';
import { addDeviceForUser, type CreatedDevice, createDevice, ingestAlerts } from './user-area-helpers.ts';

/** Counts the page's Web Audio pulses: every OscillatorNode started, from the page's first script. */
const COUNT_OSCILLATORS = () => {
  const counter = window as unknown as { oscillatorStarts: number };
  counter.oscillatorStarts = 0;
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (this: OscillatorNode, ...args: [number?]) {
    counter.oscillatorStarts += 1;
    return start.apply(this, args);
  };
};
const oscillatorStarts = (page: Page) =>
  page.evaluate(() => (window as unknown as { oscillatorStarts: number }).oscillatorStarts);

/**
 * Runs out every toast timer: react-toastify times a toast's auto-close with a CSS animation (its
 * progress bar), which the page clock does not drive, so every running animation is finished
 * (the timer, then the way out), each time letting two frames pass for its events, and the page
 * clock runs the collapse that removes a closed toast.
 */
async function runOutToastTimers(page: Page) {
  for (let round = 0; round < 2; round += 1) {
    await page.evaluate(async () => {
      for (const animation of document.getAnimations()) animation.finish();
      await new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)));
    });
  }
  await page.clock.runFor(1_000);
}

/** A user with one device, signed in, on the dashboard with the socket live. */
async function carerWithDevice(page: Page): Promise<{ user: TestUser; band: CreatedDevice }> {
  const user = await createUser(page);
  const band = await createDevice(page.request, `Band ${user.username}`);
  await addDeviceForUser(page.request, user, band, "Dad's band");
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard');
  // The device has sent nothing yet: connected, with no new readings (not "Live").
  await expect(page.getByRole('status').filter({ hasText: 'Connected · no new readings' })).toBeVisible();
  return { user, band };
}

/** To Profile through the account menu (the page stays loaded, the socket live). */
async function openProfile(page: Page, user: TestUser) {
  await page.getByRole('button', { name: `Account menu for ${user.username}` }).click();
  await page.getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { name: 'Profile Settings' })).toBeVisible();
}

/** Another session of the same carer acknowledges the alert through the API: it arrives live. */
async function acknowledgeElsewhere(page: Page, user: TestUser) {
  const login = await page.request.post('/api/v1/user/login', {
    data: { user: { username: user.username, password: user.password } },
  });
  const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data;
  const headers = { Authorization: `Bearer ${accessToken}` };
  const list = await page.request.post('/api/v1/alert/all', { headers, data: {} });
  const [alert] = ((await list.json()) as { data: { alerts: { _id: string }[] } }).data.alerts;
  expect(alert).toBeDefined();
  const ack = await page.request.post(`/api/v1/alert/acknowledge/${alert?._id}`, { headers, data: {} });
  expect(ack.status()).toBe(200);
}

test('a FALL while the carer is on a scrolled Profile page: the bar stays in view, the toast stays, the Alerts link and the tab show it; acknowledging clears them', async ({
  page,
}) => {
  await page.addInitScript(COUNT_OSCILLATORS);
  await page.clock.install();
  const { user, band } = await carerWithDevice(page);
  await openProfile(page, user);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
  // Away from the top-right corner: a toast under the pointer pauses.
  await page.mouse.move(5, 500);
  const plainTitle = await page.title();
  expect(plainTitle).toBe('Profile Settings · VitalWatch');

  await ingestAlerts(page.request, band, [{ alertType: 'FALL' }]);
  const banner = page.getByTestId('urgent-banner');
  await expect(banner).toContainText('Fall detected');
  // The toast stays: 5 s on (the page clock for timers, CSS animations finished), still there.
  const toast = page.locator('.Toastify__toast').filter({ hasText: 'Fall detected' });
  await expect(toast).toBeVisible();
  await page.clock.fastForward(5_000);
  await runOutToastTimers(page);
  await expect(toast).toBeVisible();
  await expect(banner).toBeInViewport();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Alerts (1 unread)' })).toBeVisible();
  await expect(page).toHaveTitle(`(1) FALL — ${plainTitle}`);
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon-alert.svg');
  // Its link leads to that wearer's dashboard.
  await expect(banner.getByRole('link', { name: 'Fall detected' })).toHaveAttribute(
    'href',
    `/dashboard?device=${band._id}`,
  );

  // The setting is off by default: no sound.
  expect(await oscillatorStarts(page)).toBe(0);

  await banner.getByRole('button', { name: /^Acknowledge: Fall detected/ }).click();
  await expect(banner).toBeHidden();
  await expect(toast).toBeHidden();
  await expect(page).toHaveTitle(plainTitle);
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon.svg');
  await expect(nav.getByRole('link', { name: 'Alerts', exact: true })).toBeVisible();
  await expect(page.getByTestId('unread-badge')).toHaveCount(0);
});

test('a lesser alert still closes its toast after 3 s', async ({ page }) => {
  const { band } = await carerWithDevice(page);
  await ingestAlerts(page.request, band, [{ alertType: 'BATTERY', alertTitle: 'Battery is low' }]);
  const toast = page.locator('.Toastify__toast').filter({ hasText: 'Battery is low' });
  await expect(toast).toBeVisible();
  await runOutToastTimers(page);
  await expect(toast).toBeHidden();
});

test('with "Sound for urgent alerts" on, the page sounds at once and every 10 s until the alert is acknowledged, by anyone', async ({
  page,
}) => {
  await page.addInitScript(COUNT_OSCILLATORS);
  await page.clock.install();
  const { user, band } = await carerWithDevice(page);
  await openProfile(page, user);
  const setting = page.getByRole('switch', { name: 'Sound for urgent alerts' });
  await expect(setting).toHaveAttribute('aria-checked', 'false');
  await setting.click();
  await expect(setting).toHaveAttribute('aria-checked', 'true');

  await ingestAlerts(page.request, band, [{ alertType: 'SOS' }]);
  await expect(page.getByTestId('urgent-banner')).toContainText('SOS');
  await expect.poll(() => oscillatorStarts(page)).toBe(10);
  await page.clock.runFor(10_000);
  await expect.poll(() => oscillatorStarts(page)).toBe(20);
  await page.clock.runFor(10_000);
  await expect.poll(() => oscillatorStarts(page)).toBe(30);

  await acknowledgeElsewhere(page, user);
  await expect(page.getByTestId('urgent-banner')).toBeHidden();
  await page.clock.runFor(30_000);
  expect(await oscillatorStarts(page)).toBe(30);
  // Stored for this browser: still on after a reload.
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Sound for urgent alerts' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
});

test('when the urgent alerts cannot be refreshed, the bar keeps them and says so; Retry brings it back', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/status of 500/);
  // The socket goes through a proxy the test can close, as a server restart would.
  const sockets: { close: () => Promise<void> }[] = [];
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    ws.connectToServer();
    sockets.push(ws);
  });
  const { band } = await carerWithDevice(page);
  await ingestAlerts(page.request, band, [{ alertType: 'FALL' }]);
  const banner = page.getByTestId('urgent-banner');
  await expect(banner).toContainText('Fall detected');

  await page.route('**/api/v1/alert/all', (route) => route.fulfill({ status: 500, body: '' }));
  const reconnected = page.waitForRequest('**/api/v1/alert/all');
  for (const ws of sockets.splice(0)) await ws.close();
  await reconnected;
  const notice = banner.getByTestId('urgent-refresh-failed');
  await expect(notice).toContainText(/Could not refresh alerts — showing what was known at \d\d:\d\d/);
  await expect(banner).toContainText('Fall detected');

  await page.unroute('**/api/v1/alert/all');
  await notice.getByRole('button', { name: 'Retry' }).click();
  await expect(notice).toBeHidden();
  await expect(banner).toContainText('Fall detected');
});
