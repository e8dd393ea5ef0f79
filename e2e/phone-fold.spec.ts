import type { Page } from '@playwright/test';
import { createUser, expect, signInWithTokens, test } from './fixtures.ts';
import { addDeviceForUser, createDevice, ingestAlerts, ingestHealth } from './user-area-helpers.ts';

/**
 * Issue 27, point 11: on a phone, upright (375×740) or on its side (740×360), the dashboard's
 * first screen shows the vitals, with urgent alerts active and the offer of browser alerts
 * still to answer, and keeps every spec text.
 */

const DIR = '.tmp/screenshots';

/** The element's box, measured in the viewport. */
async function box(page: Page, testId: string) {
  const found = await page.getByTestId(testId).boundingBox();
  expect(found, testId).not.toBeNull();
  return found as NonNullable<typeof found>;
}
const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

async function dashboardWithEverything(page: Page) {
  const user = await createUser(page);
  const band = await createDevice(page.request, `Band ${user.username}`);
  await addDeviceForUser(page.request, user, band, "Dad's band");
  await ingestHealth(page.request, band, { heartRate: 72, spo2: 97, temperature: 97.6, battery: 80 });
  await ingestAlerts(page.request, band, [{ alertType: 'SOS' }, { alertType: 'FALL' }]);
  await signInWithTokens(page, user.username, user.password);
  await page.goto(`/dashboard?device=${band._id}`);
  await expect(page.getByTestId('urgent-banner')).toBeVisible();
  await expect(page.getByTestId('spo2-value')).toHaveText('97');
  // The spec texts stay, and so does the offer of browser alerts (with its sentence).
  await expect(page.getByRole('heading', { name: 'Health Dashboard' })).toBeVisible();
  await expect(page.getByText('Monitor your health metrics in real-time')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Alerts on this browser' })).toContainText(
    'Get alerts on this browser even when VitalWatch is closed.',
  );
  // Nothing scrolls sideways.
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
  ).toBe(true);
}

for (const theme of ['light', 'dark'] as const) {
  test(`phone upright (375×740, ${theme}): all four vital cards on the first screen, under two urgent alerts`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.emulateMedia({ colorScheme: theme });
    await dashboardWithEverything(page);
    for (const name of ['SpO2', 'Heart Rate', 'Temperature', 'Battery']) {
      const found = await card(page, name).boundingBox();
      expect(found, name).not.toBeNull();
      expect(found!.y + found!.height, `${name} ends at`).toBeLessThanOrEqual(740);
    }
    // Below the bar, not under it.
    const bar = await box(page, 'urgent-banner');
    expect((await card(page, 'SpO2').boundingBox())!.y).toBeGreaterThanOrEqual(bar.y + bar.height);
    await page.screenshot({ path: `${DIR}/phone-fold-portrait-${theme}.png` });
    // The offer, under the vitals, fits the width: both its buttons in full, inside it.
    const prompt = page.getByRole('region', { name: 'Alerts on this browser' });
    await prompt.scrollIntoViewIfNeeded();
    const frame = (await prompt.boundingBox())!;
    for (const name of ['Enable alerts on this browser', 'Not now']) {
      const button = (await prompt.getByRole('button', { name }).boundingBox())!;
      expect(button.x + button.width, name).toBeLessThanOrEqual(frame.x + frame.width);
    }
  });

  test(`phone on its side (740×360, ${theme}): the first row of vitals shows its values on the first screen`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 740, height: 360 });
    await page.emulateMedia({ colorScheme: theme });
    await dashboardWithEverything(page);
    for (const vital of ['spo2', 'heartRate']) {
      for (const part of ['value', 'status', 'bar']) {
        const found = await box(page, `${vital}-${part}`);
        expect(found.y + found.height, `${vital}-${part} ends at`).toBeLessThanOrEqual(360);
      }
    }
    await page.screenshot({ path: `${DIR}/phone-fold-landscape-${theme}.png` });
  });
}
