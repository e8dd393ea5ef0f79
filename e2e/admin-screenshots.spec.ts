import type { Page } from '@playwright/test';
import { ADMIN, createUser, expect, signInWithTokens, test } from './fixtures.ts';

const DIR = '.tmp/screenshots';

/** A device assigned to three users, made through the admin API, so the tables have content. */
async function seedDevice(page: Page) {
  const login = await page.request.post('/api/v1/user/login', {
    data: { user: { username: ADMIN.username, password: ADMIN.password } },
  });
  const { data } = (await login.json()) as { data: { accessToken: string } };
  const users = [await createUser(page), await createUser(page), await createUser(page)];
  const list = await page.request.post('/api/v1/admin/all-users', {
    headers: { Authorization: `Bearer ${data.accessToken}` },
    data: { isUser: true },
  });
  const { data: listed } = (await list.json()) as { data: { users: { _id: string; username: string }[] } };
  const ids = listed.users.filter((u) => users.some((v) => v.username === u.username)).map((u) => u._id);
  const res = await page.request.post('/api/v1/admin/add-device', {
    headers: { Authorization: `Bearer ${data.accessToken}` },
    data: { deviceName: `Screenshot band ${Date.now()}`, isValid: true, users: ids },
  });
  expect(res.status()).toBe(201);
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${DIR}/${name}.png`, fullPage: true });
}

for (const theme of ['light', 'dark'] as const) {
  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['mobile', { width: 375, height: 812 }],
  ] as const) {
    test(`admin screenshots: ${theme}, ${label}`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: theme });
      await seedDevice(page);
      await signInWithTokens(page, ADMIN.username, ADMIN.password);
      const suffix = `${theme}-${label}`;

      await page.goto('/admin-dashboard');
      await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${theme}\\b`));
      await expect(page.getByRole('region', { name: 'System Status' }).getByText('Database')).toBeVisible();
      await expect(page.getByRole('img', { name: /New users per day/ })).toBeVisible();
      await shot(page, `admin-overview-${suffix}`);

      await page.goto('/admin-dashboard/users');
      await expect(page.getByText(/\d+ users found/)).toBeVisible();
      await shot(page, `admin-users-${suffix}`);
      await page.getByRole('button', { name: 'Add User' }).first().click();
      await expect(page.getByRole('dialog', { name: 'Add New User' })).toBeVisible();
      await shot(page, `admin-add-user-${suffix}`);
      await page.keyboard.press('Escape');
      await page.getByRole('row').nth(1).getByRole('button', { name: 'View Details' }).click();
      await expect(page.getByRole('dialog', { name: 'User Details' })).toBeVisible();
      await shot(page, `admin-user-details-${suffix}`);
      await page.keyboard.press('Escape');

      await page.goto('/admin-dashboard/devices');
      await expect(page.getByText(/\d+ devices found/)).toBeVisible();
      await expect(page.getByRole('cell', { name: /\.\.\.$/ }).first()).toBeVisible();
      await shot(page, `admin-devices-${suffix}`);
      await page.getByRole('row').nth(1).getByRole('button', { name: 'Edit Device' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Device' });
      await edit.getByRole('button', { name: /^Assign Users/ }).click();
      await shot(page, `admin-edit-device-${suffix}`);
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      await page.getByRole('row').nth(1).getByRole('button', { name: 'View Details' }).click();
      const details = page.getByRole('dialog', { name: 'Device Details' });
      await details.getByRole('button', { name: 'Regenerate Activation Code' }).click();
      await expect(details.getByRole('alertdialog')).toBeVisible();
      await shot(page, `admin-device-details-${suffix}`);
    });
  }
}
