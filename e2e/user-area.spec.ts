import { expect, logInViaForm, signUpViaForm, test, uniqueUser } from './fixtures.ts';
import { createDevice, dayLabel, ingestAlerts, ingestHealth } from './user-area-helpers.ts';

const DAY = 24 * 3600_000;

test('a new user: sign up, add a device, live readings and alerts, history, rename, profile', async ({
  page,
  consoleGuard,
}) => {
  test.setTimeout(180_000);
  // The unknown activation code below is a 404 the browser reports in the console.
  consoleGuard.allow(/status of 404/);
  const user = uniqueUser();
  const band = await createDevice(page.request, `Band ${user.username}`);
  const ring = await createDevice(page.request, `Ring ${user.username}`);

  await test.step('sign up and sign in', async () => {
    await signUpViaForm(page, user);
    await expect(page).toHaveURL(/\/signin$/);
    await page.getByLabel('Username or email').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Health Dashboard' })).toBeVisible();
    await expect(page.getByText('Monitor your health metrics in real-time')).toBeVisible();
  });

  await test.step('empty dashboard leads to My Devices; add devices by activation code', async () => {
    await page.getByRole('link', { name: 'Go to Devices' }).click();
    await expect(page).toHaveURL(/\/dashboard\/devices$/);
    await expect(page.getByText('No devices yet')).toBeVisible();
    await page.getByRole('button', { name: 'Add Your First Device' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Device' });
    await dialog.getByLabel('Activation Code').fill('NOT-A-REAL-CODE');
    await dialog.getByLabel('Device Name').fill('My Band');
    await dialog.getByRole('button', { name: 'Add Device' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('No device has this activation code');
    await dialog.getByLabel('Activation Code').fill(band.activationCode);
    await dialog.getByRole('button', { name: 'Add Device' }).click();
    await expect(page.getByText('Device added successfully!')).toBeVisible();
    await expect(dialog).toBeHidden();
    const card = page.getByRole('article', { name: 'My Band' });
    await expect(card.getByText('Offline')).toBeVisible();
    await expect(card.getByText('Active')).toBeVisible();

    await page.getByRole('button', { name: 'Add Device', exact: true }).click();
    await dialog.getByLabel('Activation Code').fill(ring.activationCode);
    await dialog.getByLabel('Device Name').fill('Spare Ring');
    await dialog.getByRole('button', { name: 'Add Device' }).click();
    await expect(page.getByRole('article', { name: 'Spare Ring' })).toBeVisible();
  });

  await test.step('readings appear live on the dashboard', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Dashboard' }).first().click();
    await expect(page.getByRole('button', { name: /Device/ })).toHaveText(/My Band/);
    await expect(page.getByText('No health data available.')).toBeVisible();
    await expect(page.getByTestId('updated')).toHaveText('Never');
    // Connected for live updates; no reading yet, so not "Live".
    await expect(page.getByRole('status').filter({ hasText: 'Connected · no new readings' })).toBeVisible();

    await ingestHealth(page.request, band, { heartRate: 72, spo2: 98, temperature: 97.7, battery: 85 });
    await expect(page.getByTestId('heartRate-value')).toHaveText('72');
    await expect(page.getByTestId('spo2-value')).toHaveText('98');
    await expect(page.getByTestId('temperature-value')).toHaveText('97.7');
    await expect(page.getByTestId('battery-value')).toHaveText('85');
    await expect(page.getByTestId('updated')).toHaveText('Just now');
    await expect(page.getByText('Device Connected')).toBeVisible();
    await expect(page.getByRole('img', { name: /Line chart of heart rate and SpO2/ })).toBeVisible();
    await expect(page.getByText('Avg. Heart Rate').locator('..')).toContainText('72 BPM');
  });

  await test.step('a critical reading raises a high-priority alert at once, live', async () => {
    // NEWS2's 3-point band (≥ 131 BPM): no 30 s delay, straight to the urgent banner.
    await ingestHealth(page.request, band, { heartRate: 132, spo2: 97, temperature: 97.9, battery: 84 });
    await expect(page.getByTestId('heartRate-value')).toHaveText('132');
    await expect(page.getByRole('region', { name: 'Heart Rate' }).getByText('Abnormal')).toBeVisible();
    await expect(page.getByText('Avg. Heart Rate').locator('..')).toContainText('102 BPM');
    const newest = page.getByTestId('recent-alerts').getByRole('listitem').first();
    await expect(newest).toContainText('Critical high heart rate');
    await expect(newest).toContainText('High priority');
    await expect(page.getByText('My Band: Critical high heart rate')).toBeVisible();
    await expect(page.getByTestId('urgent-banner')).toContainText('Critical high heart rate');
  });

  await test.step('the history: counts, load more, filters, mark read', async () => {
    const now = Date.now();
    const earlier = new Date(now - 3 * DAY);
    await ingestAlerts(page.request, band, [
      ...Array.from({ length: 6 }, (_, i) => ({
        alertType: 'FALL',
        recordedAt: new Date(earlier.getTime() + i * 60_000).toISOString(),
      })),
      ...Array.from({ length: 6 }, (_, i) => ({
        alertType: 'SOS',
        recordedAt: new Date(now - (i + 1) * 1000).toISOString(),
      })),
    ]);
    await ingestAlerts(page.request, ring, [{ alertType: 'SOS' }, { alertType: 'FALL' }]);
    // High-priority toasts stay until acknowledged or closed (the urgent bar keeps the alerts): the
    // carer closes them before working on the list under them.
    const lasting = page.locator('.Toastify__toast--error');
    await expect(lasting).toHaveCount(3);
    // One at a time, each gone before the next: a closing toast leaves the list as it goes.
    for (let left = 3; left > 0; left -= 1) {
      await lasting.first().getByRole('button', { name: 'close' }).click();
      await expect(lasting).toHaveCount(left - 1);
    }

    await page.getByRole('link', { name: 'View All Alerts' }).click();
    await expect(page).toHaveURL(/\/dashboard\/alerts$/);
    await expect(page.getByText('15 Alerts Found')).toBeVisible();
    await expect(page.getByText('Sorted by: Most recent')).toBeVisible();
    await expect(page.getByTestId('unread-count')).toHaveText('15');
    const list = page.getByTestId('alerts-list').getByRole('listitem');
    await expect(list).toHaveCount(10);
    await page.getByRole('button', { name: 'Load More Alerts' }).click();
    await expect(list).toHaveCount(15);
    await expect(page.getByText("You've reached the end")).toBeVisible();

    await page.getByLabel('Device').selectOption({ label: 'My Band' });
    await expect(page.getByText('13 Alerts Found')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Active filters' })).toContainText('Device: My Band');

    await page.getByRole('button', { name: /Date range/ }).click();
    const today = new Date();
    await page.getByRole('button', { name: dayLabel(today) }).click();
    await expect(page.getByRole('button', { name: 'Apply Dates' })).toBeDisabled();
    await page.getByRole('button', { name: dayLabel(today) }).click();
    await page.getByRole('button', { name: 'Apply Dates' }).click();
    await expect(page.getByText('7 Alerts Found')).toBeVisible();
    await expect(page.getByText("You've reached the end")).toBeVisible();

    await page.getByRole('button', { name: /^Remove filter Dates/ }).click();
    await expect(page.getByText('13 Alerts Found')).toBeVisible();
    await page.getByRole('button', { name: 'Remove filter Device: My Band' }).click();
    await expect(page.getByText('15 Alerts Found')).toBeVisible();

    await list
      .first()
      .getByRole('button', { name: / Unread .* Mark as read$/ })
      .click();
    await expect(page.getByTestId('unread-count')).toHaveText('14');
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(page.getByTestId('unread-count')).toHaveText('0');
    await page.reload();
    await expect(page.getByTestId('unread-count')).toHaveText('0');
  });

  await test.step('a live alert lands on top of the history', async () => {
    await ingestAlerts(page.request, ring, [{ alertType: 'SOS', alertTitle: 'Help pressed' }]);
    await expect(page.getByTestId('alerts-list').getByRole('listitem').first()).toContainText('Help pressed');
    await expect(page.getByText('16 Alerts Found')).toBeVisible();
    await expect(page.getByTestId('unread-count')).toHaveText('1');
  });

  await test.step('rename the device', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Devices' }).first().click();
    await page.getByRole('button', { name: 'Edit name of My Band' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit name' });
    await dialog.getByLabel('Device Name').fill('Left Wrist');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Device name updated successfully!')).toBeVisible();
    await expect(page.getByRole('article', { name: 'Left Wrist' }).getByText('Online')).toBeVisible();
  });

  const newPassword = 'N3wPassw0rd!';
  await test.step('change name and password in Profile', async () => {
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('link', { name: 'Profile' }).click();
    await expect(page).toHaveURL(/\/dashboard\/profile$/);
    await expect(page.getByText(user.email, { exact: true })).toBeVisible();
    await page.getByRole('button', { name: /Edit Profile/ }).click();
    await page.getByLabel('Full Name').fill('Renamed Person');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Profile updated successfully')).toBeVisible();
    await expect(page.getByText('Renamed Person', { exact: true })).toBeVisible();

    await page.getByRole('button', { name: /Change Password/ }).click();
    await page.getByLabel('Current Password').fill(user.password);
    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm New Password').fill(newPassword);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect(page.getByText('Password changed successfully')).toBeVisible();
  });

  await test.step('sign out and in with the new password', async () => {
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByText('Logged out successfully')).toBeVisible();
    await logInViaForm(page, user.username, newPassword, /\/dashboard$/);
    await expect(page.getByRole('button', { name: /Device/ })).toHaveText(/Left Wrist/);
  });
});
