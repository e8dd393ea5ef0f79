import { ADMIN, createUser, expect, logInViaForm, test } from './fixtures.ts';
import { addDeviceForUser, createDevice } from './user-area-helpers.ts';

test('an admin sees every share link with its maker and state, and revokes one', async ({ page }) => {
  const user = await createUser(page);
  const deviceName = `Shared band ${user.username}`;
  const device = await createDevice(page.request, `Band ${user.username}`);
  await addDeviceForUser(page.request, user, device, deviceName);
  const login = await page.request.post('/api/v1/user/login', {
    data: { user: { username: user.username, password: user.password } },
  });
  const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data;
  const made = await page.request.post('/api/v1/share/create', {
    headers: { Authorization: `Bearer ${accessToken}` },
    data: { deviceId: device._id, days: 7 },
  });
  expect(made.status()).toBe(201);
  const { token } = ((await made.json()) as { data: { token: string } }).data;

  await logInViaForm(page, ADMIN.username, ADMIN.password, /\/admin-dashboard$/);
  await page.getByRole('link', { name: 'Share Links' }).click();
  await expect(page).toHaveURL(/\/admin-dashboard\/share-links$/);
  const row = page
    .getByRole('table', { name: 'Share links' })
    .getByRole('row')
    .filter({ hasText: deviceName });
  await expect(row).toContainText(user.username);
  await expect(row).toContainText('Active');

  await row.getByRole('button', { name: `Revoke link to ${deviceName}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke share link' });
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Share link revoked')).toBeVisible();
  await expect(row).toContainText('Revoked');
  await expect(row.getByRole('button', { name: /^Revoke link/ })).toHaveCount(0);
  expect((await page.request.get(`/api/v1/shared/${token}`)).status()).toBe(404);
});
