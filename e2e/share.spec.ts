import { createUser, expect, signInWithTokens, test } from './fixtures.ts';
import { addDeviceForUser, createDevice, ingestHealth } from './user-area-helpers.ts';

test('a carer shares a device read-only; someone without an account sees it and its report until it is revoked', async ({
  page,
  browser,
  baseURL,
  consoleGuard,
}) => {
  // The revoked link's page asks once more and is refused.
  consoleGuard.allow(/status of 404/);
  await page.setViewportSize({ width: 375, height: 812 });
  const user = await createUser(page);
  const band = await createDevice(page.request, `Band ${user.username}`);
  await addDeviceForUser(page.request, user, band, 'Wristband');
  const recordedAt = new Date(Date.now() - 2 * 60_000).toISOString();
  await ingestHealth(page.request, band, {
    recordedAt,
    heartRate: 72,
    spo2: 97,
    temperature: 98.6,
    battery: 80,
  });
  await signInWithTokens(page, user.username, user.password);

  await page.goto('/dashboard/devices');
  await page.getByRole('button', { name: 'Share Wristband read-only' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share read-only' });
  await expect(dialog.getByText('None: nobody can open this device by link.')).toBeVisible();
  await dialog.getByLabel('Link lasts').selectOption('7');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const url = await dialog.getByLabel('Share link').inputValue();
  expect(url).toMatch(/\/shared\/[A-Za-z0-9_-]{40,}$/);
  await expect(dialog.getByRole('button', { name: 'Revoke' })).toHaveCount(1);
  await dialog.screenshot({ path: '.tmp/screenshots/share-modal-375.png' });

  const visitor = await browser.newContext({ baseURL, viewport: { width: 375, height: 812 } });
  const outside = await visitor.newPage();
  await outside.goto(url);
  await expect(outside.getByRole('heading', { name: 'Wristband' })).toBeVisible();
  await expect(outside.getByText(/^Shared read-only until /)).toBeVisible();
  await expect(outside.getByTestId('heartRate-value')).toHaveText('72');
  await outside.screenshot({ path: '.tmp/screenshots/shared-page-375.png', fullPage: true });
  const download = outside.waitForEvent('download');
  await outside.getByRole('button', { name: 'PDF report, last 7 days' }).click();
  expect((await download).suggestedFilename()).toMatch(/^vitalwatch-report-.*\.pdf$/);

  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(dialog.getByText('None: nobody can open this device by link.')).toBeVisible();
  await outside.reload();
  await expect(outside.getByText('This link has expired or was revoked')).toBeVisible();
  await visitor.close();
});
