import { createUser, expect, signInWithTokens, test } from './fixtures.ts';
import { addDeviceForUser, createDevice, ingestHealth, type Reading } from './user-area-helpers.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

test('every period covers its whole window from server buckets, with a gap where the device was silent; zooming in fetches finer', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const user = await createUser(page);
  const band = await createDevice(page.request, `Band ${user.username}`);
  await addDeviceForUser(page.request, user, band, 'Busy band');
  // A reading a minute for 7 days, but for a 3-hour silence 10 to 7 hours ago.
  const end = Date.now() - MINUTE;
  const readings: Reading[] = [];
  for (let t = end - 7 * DAY + MINUTE; t <= end; t += MINUTE) {
    if (t > end - 10 * HOUR && t < end - 7 * HOUR) continue;
    const i = readings.length;
    readings.push({
      recordedAt: new Date(t).toISOString(),
      heartRate: 60 + Math.round(20 * Math.abs(Math.sin(i / 50))),
      spo2: 95 + (i % 4),
      temperature: 97.5,
      battery: 80,
    });
  }
  for (let i = 0; i < readings.length; i += 500)
    await ingestHealth(page.request, band, readings.slice(i, i + 500));
  const mean = (from: number) => {
    const inside = readings.filter((r) => Date.parse(r.recordedAt!) >= from).map((r) => r.spo2!);
    return Math.round((inside.reduce((a, b) => a + b, 0) / inside.length) * 10) / 10;
  };

  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard');
  const chart = page.getByRole('img', { name: /Line chart/ });
  const resolution = page.getByTestId('trends-resolution');
  await expect(chart).toBeVisible();
  // 24 h: buckets of a few minutes (as many as fit the budget) over the whole day, and the
  // silence named, not bridged.
  await expect(resolution).toContainText(/Every \d+ minutes/);
  await expect(page.getByTestId('trends-gaps')).toContainText('No readings');
  await expect(page.getByText('Avg. SpO2').locator('..')).toContainText(`${mean(Date.now() - DAY)} %`);
  await page.locator('section[aria-labelledby="health-trends-title"]').screenshot({
    path: '.tmp/screenshots/user-trends-day-gap.png',
  });

  // Zoomed in, the visible hours come back at a finer resolution; Reset Zoom returns to the day.
  const day = (await resolution.textContent()) ?? '';
  await chart.hover();
  for (let i = 0; i < 12; i++) await page.mouse.wheel(0, -300);
  await expect(resolution).not.toHaveText(day);
  await page.getByRole('button', { name: 'Reset Zoom' }).click();
  await expect(resolution).toHaveText(day);

  await page.getByText('Last 7 days').click();
  // The week's own buckets, not the day's kept on screen while they load.
  await expect(resolution).not.toHaveText(day);
  await expect(resolution).toContainText(/Every \d+ minutes|Every \d+ hours/);
  await expect(page.getByText('Avg. SpO2').locator('..')).toContainText(`${mean(Date.now() - 7 * DAY)} %`);
  await page.getByText('Last 30 days').click();
  await expect(resolution).toContainText(/Every \d+ hours|Shown per hour/);
  await page.getByText('Last hour').click();
  await expect(resolution).toContainText('Shown every reading');
  await expect(page.getByText('No readings in the last hour.')).toBeHidden();
});
