import type { Page } from '@playwright/test';
import { createUser, expect, signInWithTokens, test } from './fixtures.ts';
import { addDeviceForUser, createDevice, ingestHealth, type Reading } from './user-area-helpers.ts';

/** Issue 27, point 10: the chart opens where the data is, shades the normal ranges, offers temperature and a clinical zoom. */

/** A device that began sending a minute ago: a reading every 10 s, SpO2 falling 97 → 90. */
function lastMinute(): Reading[] {
  const spo2 = [97, 97, 96, 95, 93, 91, 90];
  return spo2.map((s, i) => ({
    recordedAt: new Date(Date.now() - (60 - i * 10) * 1000).toISOString(),
    spo2: s,
    heartRate: 72 + i,
    temperature: 98.1,
    battery: 80,
  }));
}

async function openDashboard(page: Page, unit?: 'F' | 'C') {
  const user = await createUser(page);
  const band = await createDevice(page.request, `Chart band ${user.username}`);
  await addDeviceForUser(page.request, user, band, 'New band');
  await ingestHealth(page.request, band, lastMinute());
  await signInWithTokens(page, user.username, user.password);
  if (unit) {
    const token = await page.evaluate(() => localStorage.getItem('access-token'));
    const res = await page.request.post('/api/v1/user/temperature-unit', {
      headers: { Authorization: `Bearer ${token}` },
      data: { unit },
    });
    expect(res.status()).toBe(200);
  }
  await page.goto('/dashboard');
  const trends = page.getByRole('region', { name: 'Health Trends' });
  const chart = trends.getByRole('img', { name: /^Line chart of/ });
  // The opening range is chosen from one more call first.
  await expect(chart).toBeVisible({ timeout: 30_000 });
  return { trends, chart };
}

test('a device sending for a minute opens on the last hour, not 24 hours', async ({ page }) => {
  const { trends } = await openDashboard(page);
  await expect(trends.getByRole('radio', { name: 'Last hour' })).toBeChecked();
  await expect(trends.getByRole('radio', { name: 'Last 24 hours' })).not.toBeChecked();
});

/** Pixels of the canvas painted faint red (the heart-rate normal band: its colour at 8 %). */
const faintRedPixels = (page: Page) =>
  page
    .getByRole('region', { name: 'Health Trends' })
    .locator('canvas')
    .evaluate((canvas: HTMLCanvasElement) => {
      const ctx = canvas.getContext('2d');
      if (!ctx) return 0;
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
        if (a >= 10 && a <= 40 && r > g + 80 && r > b + 80) n += 1;
      }
      return n;
    });

test('the normal ranges are shaded behind the lines and named under the chart', async ({ page }) => {
  const { trends } = await openDashboard(page);
  await expect(trends.getByTestId('normal-bands')).toHaveText(
    'Shaded: normal range · Heart Rate 60–100 BPM · SpO2 95–100 %',
  );
  // The heart-rate band spans 60–100 of a 50–100 axis: most of the plot.
  expect(await faintRedPixels(page)).toBeGreaterThan(20_000);
});

test('temperature is offered, in the user’s unit', async ({ page }) => {
  const { trends, chart } = await openDashboard(page, 'C');
  await expect(chart).not.toHaveAttribute('aria-label', /Temperature/);
  const toggle = trends.getByRole('button', { name: 'Temperature' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(chart).toHaveAttribute('aria-label', /Temperature \(axis 34–40 °C\)/);
  await expect(trends.getByTestId('normal-bands')).toContainText('Temperature 35–36.9 °C');
});

test('Clinical range fits the SpO2 axis to the data and the band: 97 → 90 fills the chart', async ({
  page,
}) => {
  const { trends, chart } = await openDashboard(page);
  await expect(chart).toHaveAttribute('aria-label', /SpO2 \(axis 50–100 %\)/);
  const canvas = trends.locator('canvas');
  const before = await canvas.evaluate((c: HTMLCanvasElement) => c.toDataURL());
  await trends.getByRole('button', { name: 'Clinical range' }).click();
  await expect(chart).toHaveAttribute('aria-label', /SpO2 \(axis 89–100 %\)/);
  await expect(chart).toHaveAttribute('aria-label', /Heart Rate \(axis 55–105 BPM\)/);
  expect(await canvas.evaluate((c: HTMLCanvasElement) => c.toDataURL())).not.toBe(before);
  await trends.getByRole('button', { name: 'Clinical range' }).click();
  await expect(chart).toHaveAttribute('aria-label', /SpO2 \(axis 50–100 %\)/);
});

test('on a phone, Chart.js is loaded once the chart is scrolled to, not for the first screen', async ({
  page,
}) => {
  await page.setViewportSize({ width: 412, height: 823 });
  const chartCode: string[] = [];
  page.on('request', (request) => {
    if (/\/assets\/trends-chart-[^/]+\.js$/.test(request.url())) chartCode.push(request.url());
  });
  const user = await createUser(page);
  const band = await createDevice(page.request, `Chart band ${user.username}`);
  await addDeviceForUser(page.request, user, band, 'New band');
  await ingestHealth(page.request, band, lastMinute());
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard');
  const trends = page.getByRole('region', { name: 'Health Trends' });
  // The vitals and the period's history are there; the chart's place, below the fold, waits.
  await expect(page.getByTestId('heartRate-value')).toHaveText('78');
  await expect(trends.getByTestId('trends-resolution')).toBeAttached({ timeout: 30_000 });
  expect(chartCode).toEqual([]);
  await expect(trends.getByRole('img', { name: /^Line chart of/ })).toHaveCount(0);

  await trends.getByTestId('normal-bands').scrollIntoViewIfNeeded();
  await expect(trends.getByRole('img', { name: /^Line chart of/ })).toBeVisible();
  expect(chartCode).toHaveLength(1);
});
