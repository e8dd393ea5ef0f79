import { test as base, type Page } from '@playwright/test';
import { expect as baseExpect, createUser, signInWithTokens, test } from './fixtures.ts';
import { ServerProcess } from './server-process.ts';
import { addDeviceForUser, createDevice, ingestAlerts, ingestHealth } from './user-area-helpers.ts';

/** What Chromium logs while the server is away: refused requests and socket attempts. */
const OUTAGE_NOISE = /ERR_CONNECTION_REFUSED|WebSocket connection|Failed to load resource|ERR_FAILED/;

/** Console errors of the page, but the ones the outage itself causes. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !OUTAGE_NOISE.test(m.text())) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return errors;
}

/** Two server starts on a machine shared with other test runs: more time than the default 10 s. */
const expect = baseExpect.configure({ timeout: 30_000 });

const CLOCK = /\d\d:\d\d (AM|PM)/.source;

base(
  'a server stopped and started under an open dashboard: the page says it is not live, from when; cards show their age; an acknowledge that did not reach the server says so and is retried; a reload gets the offline page, which comes back by itself',
  async ({ browser }) => {
    base.setTimeout(600_000);
    const server = await ServerProcess.start();
    const context = await browser.newContext({ baseURL: server.origin });
    try {
      const page = await context.newPage();
      const errors = consoleErrors(page);
      const user = await createUser(page);
      const band = await createDevice(page.request, `Band ${user.username}`);
      await addDeviceForUser(page.request, user, band, 'Band');
      await ingestHealth(page.request, band, { heartRate: 70, spo2: 97, temperature: 97.5, battery: 90 });
      await ingestAlerts(page.request, band, [{ alertType: 'SOS', alertTitle: 'SOS pressed' }]);
      await signInWithTokens(page, user.username, user.password);
      await page.goto('/dashboard');
      await expect(page.getByTestId('heartRate-value')).toHaveText('70');
      await expect(page.getByTestId('heartRate-status')).toHaveText('Normal');
      await expect(page.getByRole('status').filter({ hasText: 'Live' })).toHaveText('Live');
      await expect(page.getByTestId('updated')).toHaveText('Just now');
      const urgent = page.getByTestId('urgent-banner');
      await expect(urgent).toContainText('SOS pressed');
      // The service worker controls the page, so a reload during the outage can be answered.
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await expect(page.getByTestId('outage-banner')).toBeHidden();

      await server.stop();
      const outage = page.getByTestId('outage-banner');
      await expect(outage).toContainText(
        new RegExp(`^Not live: alerts paused since ${CLOCK} — reconnecting`),
      );
      await expect(page.getByTestId('updated')).toHaveText(/^\d\d:\d\d:\d\d (AM|PM) \(\d+ s ago\)$/);
      await expect(page.getByTestId('heartRate-status')).toHaveText('Not live · was Normal');
      await expect(page.getByTestId('not-live-notice')).toContainText('Not live: this reading is from');

      await urgent.getByRole('button', { name: /^Acknowledge/ }).click();
      const notRecorded = page.getByTestId('not-recorded');
      await expect(notRecorded).toHaveText(
        /^Not recorded: Failed to acknowledge the alert\. The server could not be reached\.Retry$/,
      );
      await expect(urgent).toContainText('SOS pressed');

      await server.start();
      await expect(outage).toBeHidden();
      // Live again: the spec's relative wording (the restart itself may take over a minute here).
      await expect(page.getByTestId('updated')).toHaveText(/^(Just now|\d+ minutes? ago)$/);
      await notRecorded.getByRole('button', { name: 'Retry' }).click();
      await expect(notRecorded).toBeHidden();
      await expect(urgent).toBeHidden();
      const alerts = await page.request.post('/api/v1/alert/latest/1', {
        headers: {
          authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('access-token'))}`,
        },
      });
      expect((await alerts.json()).data.alerts[0]).toMatchObject({
        alertTitle: 'SOS pressed',
        status: 'acknowledged',
      });

      await server.stop();
      await expect(outage).toBeVisible();
      await page.reload();
      await expect(
        page.getByRole('heading', { name: 'VitalWatch cannot be reached right now' }),
      ).toBeVisible();
      await expect(page.getByRole('alert')).toHaveText(
        new RegExp(`^Not live: alerts paused since ${CLOCK} — reconnecting$`),
      );
      await expect(page.getByText('the VitalWatch server is not answering')).toBeVisible();
      await server.start();
      // The offline page tries again by itself and opens the dashboard once the server answers.
      await expect(page.getByTestId('heartRate-value')).toHaveText('70');
      await expect(page.getByRole('status').filter({ hasText: 'Live' })).toHaveText('Live');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await server.dispose();
    }
  },
);

test('a failed health fetch says what failed (the server unreachable, or its error), not to check the device', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/ERR_CONNECTION_REFUSED|Failed to load resource/);
  const user = await createUser(page);
  const band = await createDevice(page.request, `Band ${user.username}`);
  await addDeviceForUser(page.request, user, band, 'Band');
  await ingestHealth(page.request, band, { heartRate: 70, spo2: 97, temperature: 97.5, battery: 90 });
  const latest = '**/api/v1/health/fetch/**';
  await page.route(latest, (route) => route.abort('connectionrefused'));
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard');

  const failed = page
    .getByRole('alert')
    .filter({ hasText: 'No health data available.' })
    .or(page.getByRole('alert').filter({ hasText: 'The server' }));
  await expect(failed).toContainText('The server could not be reached.');
  await expect(failed).toContainText('An unexpected error occurred! Please try again.');
  await expect(page.getByText('No health data available.')).toBeVisible();
  await expect(page.getByText('Please ensure your device is connected and transmitting data.')).toBeHidden();
  // The device itself is fine: it sent a reading a moment ago.
  await expect(page.getByText('Device Online')).toBeVisible();

  await page.unroute(latest);
  await page.route(latest, (route) =>
    route.fulfill({
      status: 500,
      json: { success: false, message: 'Internal server error', code: 'INTERNAL' },
    }),
  );
  await failed.getByRole('button', { name: 'Try again' }).click();
  await expect(failed).toContainText('The server answered with an error (500).');
  await expect(failed).toContainText('Internal server error');
  await expect(page.getByText('Please ensure your device is connected and transmitting data.')).toBeHidden();

  await page.unroute(latest);
  await failed.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('heartRate-value')).toHaveText('70');
});
