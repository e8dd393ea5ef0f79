import { createUser, expect, signInWithTokens, test } from './fixtures.ts';
import { addDeviceForUser, createDevice, ingestHealth } from './user-area-helpers.ts';

test('a user who chooses °C in the profile sees the temperature card in °C', async ({ page }) => {
  const user = await createUser(page);
  const band = await createDevice(page.request, `Band ${user.username}`);
  await addDeviceForUser(page.request, user, band, 'Wristband');
  await ingestHealth(page.request, band, { heartRate: 72, spo2: 97, temperature: 98.6, battery: 80 });
  await signInWithTokens(page, user.username, user.password);

  await page.goto('/dashboard');
  const card = page.getByRole('region', { name: 'Temperature' });
  await expect(card).toContainText('98.6');
  await expect(card).toContainText('°F');

  await page.goto('/dashboard/profile');
  // A slow answer: the choice shows at once, before the server has it.
  await page.route('**/api/v1/user/temperature-unit', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    await route.continue();
  });
  const units = page.getByRole('region', { name: 'Units' });
  await expect(units.getByRole('radio', { name: '°F (Fahrenheit)' })).toBeChecked();
  await units.getByRole('radio', { name: '°C (Celsius)' }).check();
  await expect(page.getByText('Temperature unit saved')).toBeVisible();

  await page.getByRole('link', { name: 'Dashboard' }).first().click();
  await expect(card.getByTestId('temperature-value')).toHaveText('37.0');
  await expect(card).toContainText('°C');
  await page.reload();
  await expect(card.getByTestId('temperature-value')).toHaveText('37.0');
});
