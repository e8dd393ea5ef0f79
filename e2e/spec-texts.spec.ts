import { ADMIN, createUser, expect, signInWithTokens, test } from './fixtures.ts';
import { addDeviceForUser, createDevice } from './user-area-helpers.ts';

/** Review 27, point 13: where the screens had drifted from the spec's texts. */

test("a device that never reported shows the spec's offline texts, then why", async ({ page }) => {
  const user = await createUser(page);
  const device = await createDevice(page.request, `Silent ${user.username}`);
  await addDeviceForUser(page.request, user, device, 'Silent band');
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard');
  const card = page.getByRole('region', { name: 'Device Connection' });
  await expect(card.getByText('Device Offline', { exact: true })).toBeVisible();
  await expect(card.getByText('Last update was more than 15 minutes ago')).toBeVisible();
  await expect(card.getByText('No readings received from this device yet')).toBeVisible();
});

test('a user search that finds nothing offers the Add User button', async ({ page }) => {
  await signInWithTokens(page, ADMIN.username, ADMIN.password);
  await page.goto('/admin-dashboard/users');
  await page.getByRole('searchbox', { name: 'Search users' }).fill('no-such-user-anywhere');
  await expect(page.getByText('No users found')).toBeVisible();
  await expect(page.getByText('Try adjusting your search query')).toBeVisible();
  const addButtons = page.getByRole('button', { name: 'Add User' });
  await expect(addButtons).toHaveCount(2);
  await addButtons.last().click();
  await expect(page.getByRole('dialog', { name: 'Add New User' })).toBeVisible();
});

test("an unknown path shows the spec's plain 'Page Not Found' heading, signed out and in", async ({
  page,
}) => {
  const notFound = async (path: string) => {
    await page.goto(path);
    const headings = page.getByRole('heading', { level: 1 });
    await expect(headings).toHaveCount(1);
    await expect(headings).toHaveText('Page Not Found');
  };
  await notFound('/nowhere');
  const user = await createUser(page);
  await signInWithTokens(page, user.username, user.password);
  await notFound('/dashboard/nowhere');
});
