import { readFile } from 'node:fs/promises';
import { labelQrCodes } from '../packages/server/test/qr-labels.ts';
import { ADMIN, createUser, expect, signInWithTokens, test } from './fixtures.ts';
import { createDevice } from './user-area-helpers.ts';

test("a device label's QR code leads a signed-out carer through sign-in to Add Device, code filled in", async ({
  page,
  baseURL,
}) => {
  const device = await createDevice(page.request, `Label ${Date.now().toString(36)}`);
  const claimLink = `${baseURL}/claim/${encodeURIComponent(device.activationCode)}`;

  // The admin prints the labels; the sheet has this device's QR code, which decodes to its claim link.
  await signInWithTokens(page, ADMIN.username, ADMIN.password);
  await page.goto('/admin-dashboard/devices');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Print labels' }).click(),
  ]);
  const pdf = await readFile(await download.path());
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(await labelQrCodes(pdf)).toContain(claimLink);
  await page.evaluate(() => localStorage.clear());

  // A carer without a session scans it: sign in first, then Add Device with the code in it.
  const carer = await createUser(page);
  await page.goto(claimLink);
  await expect(page).toHaveURL(/\/signin\?next=%2Fdashboard%2Fdevices%3Fclaim%3D/);
  await page.getByLabel('Username or email').fill(carer.username);
  await page.getByLabel('Password').fill(carer.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Device' });
  await expect(dialog.getByLabel('Activation Code')).toHaveValue(device.activationCode);
  await dialog.getByLabel('Device Name').fill('From the label');
  await dialog.getByRole('button', { name: 'Add Device' }).click();
  await expect(page.getByRole('heading', { name: 'From the label' })).toBeVisible();
});
