import type { Page } from '@playwright/test';
import { ADMIN, expect, logInViaForm, test } from './fixtures.ts';

/** The value between the single quotes after `flag` in a shell command. */
function quoted(command: string, flag: string): string {
  const found = new RegExp(`${flag} '([^']*)'`).exec(command);
  if (!found?.[1]) throw new Error(`no ${flag} '…' in:\n${command}`);
  return found[1];
}

/** Clicks a copy button of the Device Details modal and reads back what reached the clipboard. */
async function copied(page: Page, button: string, toast: string): Promise<string> {
  await page.getByRole('dialog', { name: 'Device Details' }).getByRole('button', { name: button }).click();
  await expect(page.getByText(toast).first()).toBeVisible();
  return page.evaluate(() => navigator.clipboard.readText());
}

test('first run: the admin adds a device and sees it live, with no terminal', async ({ page, context }) => {
  test.setTimeout(90_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const deviceName = `First watch ${Date.now().toString(36)}`;

  await logInViaForm(page, ADMIN.username, ADMIN.password, /\/admin-dashboard$/);
  await page.getByRole('navigation').getByRole('link', { name: 'Devices' }).first().click();
  await expect(page.getByRole('heading', { name: 'Device Management' })).toBeVisible();

  await page.getByRole('button', { name: 'Add Device' }).first().click();
  const add = page.getByRole('dialog', { name: 'Add New Device' });
  await add.getByLabel('Device Name').fill(deviceName);
  await add.getByRole('button', { name: 'Add Device' }).click();
  await expect(add).toBeHidden();

  await page
    .getByRole('row')
    .filter({ hasText: deviceName })
    .getByRole('button', { name: 'View Details' })
    .click();
  const details = page.getByRole('dialog', { name: 'Device Details' });
  await expect(details.getByTestId('device-state')).toHaveText('No reading yet');

  // The server stores one normal reading through the device's ingest path; the admin sees it.
  await details.getByRole('button', { name: 'Send a test reading' }).click();
  await expect(page.getByText('Test reading sent').first()).toBeVisible();
  await expect(details.getByTestId('device-state')).toHaveText(/^Online · last reading/);
  for (const vital of ['spo2', 'heartRate', 'temperature', 'battery']) {
    await expect(details.getByTestId(`${vital}-status`)).toHaveText('Normal');
  }
  const testBattery = Number(await details.getByTestId('battery-value').textContent());
  expect(testBattery).toBeGreaterThanOrEqual(85);

  // Each code says who it is for.
  await expect(
    details.getByText('For the person who wears it or cares for them: My Devices → Add Device'),
  ).toBeVisible();
  await expect(details.getByText('For the device itself: X-Api-Key header or MQTT password')).toBeVisible();

  // The HTTP command has this server and the device's code filled in, and works as copied.
  const apiKey = await copied(page, 'Copy API Auth Code', 'API auth code copied!');
  const curl = await copied(page, 'Copy HTTP (curl) snippet', 'HTTP snippet copied!');
  expect(curl).toContain(apiKey);
  const origin = new URL(page.url()).origin;
  const url = quoted(curl, 'curl -X POST');
  expect(url).toBe(`${origin}/api/v1/ingest/health`);
  const apiKeyHeader = quoted(curl, '-H').split(': ');
  expect(apiKeyHeader).toEqual(['X-Api-Key', apiKey]);
  const body = quoted(curl, '-d');
  const sent = await page.request.post(url, {
    headers: { 'X-Api-Key': apiKey, 'Content-Type': 'application/json' },
    data: body,
  });
  expect(sent.status(), await sent.text()).toBe(202);

  // Device Details refreshes by itself and shows the reading the command sent.
  const values = JSON.parse(body) as { battery: number; heartRate: number };
  expect(values.battery).not.toBe(testBattery);
  await expect(details.getByTestId('battery-value')).toHaveText(String(values.battery), { timeout: 15_000 });
  await expect(details.getByTestId('heartRate-value')).toHaveText(String(values.heartRate));
});
