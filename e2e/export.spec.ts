import { readFile } from 'node:fs/promises';
import { createUser, expect, signInWithTokens, test } from './fixtures.ts';
import { addDeviceForUser, createDevice, ingestAlerts, ingestHealth } from './user-area-helpers.ts';

test('Export on the dashboard downloads the PDF report, the readings and the alerts of the period on screen', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.emulateMedia({ colorScheme: 'dark' });
  const user = await createUser(page);
  const band = await createDevice(page.request, `Band ${user.username}`);
  await addDeviceForUser(page.request, user, band, 'Wristband');
  const recordedAt = new Date(Date.now() - 10 * 60_000).toISOString();
  await ingestHealth(page.request, band, {
    recordedAt,
    heartRate: 72,
    spo2: 97,
    temperature: 98.6,
    battery: 80,
  });
  await ingestAlerts(page.request, band, [{ alertType: 'SOS' }]);
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard');
  // On a phone the chart is drawn once scrolled to.
  await page.getByTestId('normal-bands').scrollIntoViewIfNeeded();
  await expect(page.getByRole('img', { name: /Line chart/ })).toBeVisible();

  await page.getByText('Export', { exact: true }).click();
  await page
    .locator('section[aria-labelledby="health-trends-title"]')
    .screenshot({ path: '.tmp/screenshots/export-menu.png' });
  const report = page.waitForEvent('download');
  await page.getByRole('button', { name: 'PDF report for the doctor' }).click();
  const pdf = await report;
  expect(pdf.suggestedFilename()).toMatch(/^vitalwatch-report-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.pdf$/);
  expect((await readFile((await pdf.path())!)).subarray(0, 5).toString()).toBe('%PDF-');

  const readings = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Readings CSV' }).click();
  const file = await readings;
  expect(file.suggestedFilename()).toMatch(/^vitalwatch-readings-raw-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv$/);
  const csv = await readFile((await file.path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toBe('recorded_at,spo2_percent,heart_rate_bpm,temperature_f,battery_percent');
  expect(csv).toContain(`${recordedAt},97,72,98.6,80`);

  await page.getByLabel('Readings in the CSV').selectOption('hour');
  const hourly = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Readings CSV' }).click();
  expect((await hourly).suggestedFilename()).toMatch(/^vitalwatch-readings-hour-/);

  const alerts = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Alerts CSV' }).click();
  const alertsCsv = await readFile((await (await alerts).path())!, 'utf8');
  expect(alertsCsv.split('\r\n')[0]).toMatch(/^recorded_at,received_at,type,priority,status,title,message,/);
  expect(alertsCsv).toContain(',SOS,high,active,');
});
