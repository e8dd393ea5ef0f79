import { createUser, expect, signInWithTokens, test } from './fixtures.ts';
import {
  addDeviceForUser,
  createDevice,
  ingestAlerts,
  ingestHealth,
  joinDeviceByCode,
} from './user-area-helpers.ts';

test('a FALL stays in a banner for both carers until one acknowledges it; the other sees that live', async ({
  page,
  browser,
  baseURL,
}) => {
  const ann = await createUser(page);
  const band = await createDevice(page.request, `Band ${ann.username}`);
  await addDeviceForUser(page.request, ann, band, "Dad's band");
  await ingestHealth(page.request, band, { heartRate: 72, spo2: 97, temperature: 97.6, battery: 80 });

  const bobContext = await browser.newContext({ baseURL });
  const bobPage = await bobContext.newPage();
  const bob = await createUser(bobPage);
  await joinDeviceByCode(bobPage.request, ann, bob, band);

  await signInWithTokens(page, ann.username, ann.password);
  await signInWithTokens(bobPage, bob.username, bob.password);
  await page.goto('/dashboard');
  await bobPage.goto('/dashboard/alerts');
  await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();
  // Alerts History has no live indicator; whatever its socket missed it fetches on connect.
  await expect(bobPage.getByText('0 Alerts Found')).toBeVisible();

  await ingestAlerts(page.request, band, [{ alertType: 'FALL' }]);
  const annBanner = page.getByTestId('urgent-banner');
  const bobBanner = bobPage.getByTestId('urgent-banner');
  await expect(annBanner).toContainText('Fall detected');
  await expect(bobBanner).toContainText('Fall detected');
  await expect(annBanner).toHaveAttribute('role', 'alert');

  // Navigating does not dismiss it: it is not a toast.
  await page.getByRole('link', { name: 'Devices' }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/devices$/);
  await expect(annBanner).toContainText('Fall detected');

  await annBanner.getByRole('button', { name: /^Acknowledge: Fall detected/ }).click();
  await expect(annBanner).toBeHidden();
  await expect(bobBanner).toBeHidden();
  const bobItem = bobPage.getByTestId('alerts-list').getByRole('listitem').first();
  await expect(bobItem.getByTestId('alert-lifecycle')).toHaveText(`Acknowledged by ${ann.username} just now`);
  await expect(bobItem.getByRole('button', { name: /^Acknowledge/ })).toHaveCount(0);

  // Bob marks it handled; the timeline tells the whole story.
  await bobItem.getByRole('button', { name: /^Mark handled: Fall detected/ }).click();
  await expect(bobItem.getByTestId('alert-lifecycle')).toHaveText(`Handled by ${bob.username} just now`);
  await bobItem.getByRole('button', { name: 'Details' }).click();
  const timeline = bobItem.getByTestId('alert-timeline');
  await expect(timeline).toContainText('Raised: Fall detected (high priority)');
  await expect(timeline).toContainText(`Acknowledged by ${ann.username}`);
  await expect(timeline).toContainText(`Marked handled by ${bob.username}`);
  await bobContext.close();
});

test('a device silent for over 15 minutes shows its cards as stale, not Normal', async ({ page }) => {
  const user = await createUser(page);
  const band = await createDevice(page.request, `Band ${user.username}`);
  await addDeviceForUser(page.request, user, band, 'Quiet band');
  await ingestHealth(page.request, band, {
    recordedAt: new Date(Date.now() - 45 * 60_000).toISOString(),
    heartRate: 72,
    spo2: 97,
    temperature: 97.6,
    battery: 80,
  });
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard');
  await expect(page.getByTestId('stale-notice')).toContainText('No reading for 45 minutes');
  await expect(page.getByText('Stale')).toHaveCount(4);
  await expect(page.getByText('Normal', { exact: true })).toHaveCount(0);
});
