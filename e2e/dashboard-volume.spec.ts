import { createUser, expect, signInWithTokens, test } from './fixtures.ts';
import { addDeviceForUser, createDevice, ingestHealth, type Reading } from './user-area-helpers.ts';

const WEEK = 7 * 24 * 3600_000;
const READINGS = 6000;

test('a week of thousands of readings draws a readable chart (decimated) in every period', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const user = await createUser(page);
  const band = await createDevice(page.request, `Band ${user.username}`);
  await addDeviceForUser(page.request, user, band, 'Busy band');
  const start = Date.now() - WEEK + 60_000;
  const step = (WEEK - 120_000) / READINGS;
  const readings: Reading[] = Array.from({ length: READINGS }, (_, i) => ({
    recordedAt: new Date(start + i * step).toISOString(),
    heartRate: 60 + Math.round(20 * Math.abs(Math.sin(i / 50))),
    spo2: 95 + (i % 4),
    temperature: 97.5,
    battery: 80,
  }));
  for (let i = 0; i < readings.length; i += 500)
    await ingestHealth(page.request, band, readings.slice(i, i + 500));

  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard');
  const chart = page.getByRole('img', { name: /Line chart/ });
  await expect(chart).toBeVisible();
  await page.getByText('Last 7 days').click();
  await expect(chart).toBeVisible();
  // All records of the week arrived (the newest 10,000 at most), and the page still answers at once.
  await expect(page.getByText('Avg. SpO2').locator('..')).toContainText('96.5 %');
  await chart.hover();
  await page.mouse.wheel(0, -300);
  await page.getByRole('button', { name: 'Reset Zoom' }).click();
  await page.locator('section[aria-labelledby="health-trends-title"]').screenshot({
    path: '.tmp/screenshots/user-trends-week-dense.png',
  });
  await page.getByText('Last hour').click();
  await expect(chart).toBeVisible();
  await expect(page.getByText('No readings in the last hour.')).toBeHidden();
});
