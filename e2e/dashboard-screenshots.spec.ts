import { createUser, expect, signInWithTokens, test } from './fixtures.ts';
import {
  addDeviceForUser,
  createDevice,
  ingestAlerts,
  ingestHealth,
  type Reading,
} from './user-area-helpers.ts';

const DIR = '.tmp/screenshots';

/** A day of readings every 5 minutes: a calm baseline with an episode of fast heart rate. */
function dayOfReadings(): Reading[] {
  const now = Date.now();
  return Array.from({ length: 288 }, (_, i) => {
    const t = now - (287 - i) * 5 * 60_000;
    const wave = Math.sin(i / 12);
    return {
      recordedAt: new Date(t).toISOString(),
      heartRate: Math.round(72 + 8 * wave + (i > 200 && i < 215 ? 40 : 0)),
      spo2: Math.round((97 + wave) * 10) / 10,
      temperature: Math.round((97.6 + 0.3 * wave) * 10) / 10,
      battery: Math.max(5, 100 - Math.floor(i / 3.2)),
    };
  });
}

for (const theme of ['light', 'dark'] as const) {
  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['mobile', { width: 375, height: 812 }],
  ] as const) {
    test(`user area screenshots: ${theme}, ${label}`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: theme });
      const user = await createUser(page);
      const band = await createDevice(page.request, `Band ${user.username}`);
      await addDeviceForUser(page.request, user, band, "Grandma's wristband");
      const ring = await createDevice(page.request, `Ring ${user.username}`);
      await addDeviceForUser(page.request, user, ring, 'Spare ring');
      await ingestHealth(page.request, band, dayOfReadings());
      await ingestAlerts(page.request, band, [{ alertType: 'FALL' }, { alertType: 'SOS' }]);
      await signInWithTokens(page, user.username, user.password);

      const shot = (name: string) =>
        page.screenshot({ path: `${DIR}/user-${name}-${theme}-${label}.png`, fullPage: true });

      await page.goto('/dashboard');
      await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${theme}\\b`));
      // On a phone the chart is drawn once scrolled to.
      await page.getByTestId('normal-bands').scrollIntoViewIfNeeded();
      await expect(page.getByRole('img', { name: /Line chart/ })).toBeVisible();
      await page.evaluate(() => window.scrollTo(0, 0));
      await expect(page.getByTestId('recent-alerts')).toBeVisible();
      await shot('overview');
      await page
        .locator('section[aria-labelledby="health-trends-title"]')
        .screenshot({ path: `${DIR}/user-trends-${theme}-${label}.png` });
      await page.getByRole('button', { name: /Device/ }).click();
      await expect(page.getByRole('listbox')).toBeVisible();
      await page.screenshot({ path: `${DIR}/user-overview-picker-${theme}-${label}.png` });
      await page.keyboard.press('Escape');

      await page.goto('/dashboard/devices');
      await expect(page.getByRole('article')).toHaveCount(2);
      await shot('devices');
      await page.getByRole('button', { name: 'Add Device', exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Add Device' }).click();
      await expect(page.getByText('Activation code is required')).toBeVisible();
      await page.screenshot({ path: `${DIR}/user-add-device-${theme}-${label}.png` });
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: "Alarm settings of Grandma's wristband" }).click();
      await expect(page.getByRole('spinbutton', { name: 'Low blood oxygen: Alarm limit (%)' })).toHaveValue(
        '95',
      );
      await page.screenshot({ path: `${DIR}/user-alarm-settings-${theme}-${label}.png` });
      await page.keyboard.press('Escape');

      await page.goto('/dashboard/alerts');
      await expect(page.getByTestId('alerts-list')).toBeVisible();
      await page.getByLabel('Device').selectOption({ label: "Grandma's wristband" });
      await shot('alerts');
      await page.getByRole('button', { name: /Date range/ }).click();
      await expect(page.getByTestId('calendar-day')).toHaveCount(42);
      await page.screenshot({ path: `${DIR}/user-alerts-calendar-${theme}-${label}.png`, fullPage: true });
      await page
        .getByRole('dialog', { name: 'Choose a date range' })
        .getByRole('button', { name: 'Close' })
        .click();

      await page.goto('/dashboard/profile');
      await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
      await page.getByRole('button', { name: /Change Password/ }).click();
      await page.getByLabel('New Password', { exact: true }).fill('abc');
      await page.getByLabel('Confirm New Password').fill('abd');
      await shot('profile');
      await page.getByRole('button', { name: 'Turn on quiet hours' }).click();
      await expect(page.getByText('Quiet hours saved')).toBeVisible();

      await page.goto('/dashboard/alerts');
      await expect(page.getByTestId('alerts-list')).toBeVisible();
      await page.getByTestId('alerts-list').getByRole('button', { name: 'Details' }).first().click();
      await expect(page.getByTestId('alert-timeline')).toBeVisible();
      await shot('alert-timeline');

      await page.goto('/dashboard');
      await page.getByRole('button', { name: /Device/ }).click();
      await page.getByRole('option', { name: 'Spare ring' }).click();
      await expect(page.getByText('No health data available.')).toBeVisible();
      await shot('overview-no-data');
    });
  }
}

/** What a carer must read at a glance on a phone: a critical SpO2, a device gone quiet, an urgent alert. */
for (const theme of ['light', 'dark'] as const) {
  test(`at 375 px, ${theme}: a critical SpO2 with the urgent banner, and a stale device`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.emulateMedia({ colorScheme: theme });
    const user = await createUser(page);
    const band = await createDevice(page.request, `Band ${user.username}`);
    await addDeviceForUser(page.request, user, band, "Grandma's wristband");
    const ring = await createDevice(page.request, `Ring ${user.username}`);
    await addDeviceForUser(page.request, user, ring, "Grandpa's ring");
    // The band's newest SpO2 is critical (NEWS2 scores ≤ 91 % as 3); the ring went quiet 45 minutes ago.
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
    await ingestHealth(page.request, band, [
      { recordedAt: minutesAgo(2), heartRate: 104, spo2: 95, temperature: 98.6, battery: 64 },
      { recordedAt: minutesAgo(1), heartRate: 112, spo2: 88, temperature: 98.8, battery: 63 },
    ]);
    await ingestHealth(page.request, ring, {
      recordedAt: minutesAgo(45),
      heartRate: 74,
      spo2: 97,
      temperature: 97.8,
      battery: 81,
    });
    await ingestAlerts(page.request, band, [{ alertType: 'FALL' }]);
    await signInWithTokens(page, user.username, user.password);

    await page.goto('/dashboard');
    await expect(page.getByTestId('urgent-banner')).toContainText('Fall detected');
    // The device picker, named by its label and the device shown (a "Device offline" alert for the
    // stale ring may appear meanwhile: its buttons are named "Device offline…").
    const picker = page.getByRole('button', { name: /^Device (Grandma's wristband|Grandpa's ring)$/ });
    await picker.click();
    await page.getByRole('option', { name: "Grandma's wristband" }).click();
    await expect(page.getByTestId('spo2-value')).toHaveText(/88/);
    await expect(page.getByText('↓ Low').first()).toBeVisible();
    await page.screenshot({ path: `${DIR}/glance-critical-${theme}-375.png` });

    await picker.click();
    await page.getByRole('option', { name: "Grandpa's ring" }).click();
    await expect(page.getByTestId('stale-notice')).toContainText('No reading for 45 minutes');
    await page.screenshot({ path: `${DIR}/glance-stale-${theme}-375.png` });
    // Nothing is wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
}
