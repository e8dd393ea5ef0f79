import type { Browser, Page } from '@playwright/test';
import { ADMIN, expect, logInViaForm, type TestUser, test, uniqueUser } from './fixtures.ts';

const ADMIN_HOME = /\/admin-dashboard$/;
const NEW_PASSWORD = 'Fresh1Passw0rd';

/**
 * A page in its own browser context (own storage), as a second person at another computer.
 * `close` fails the test if that page logged a console error (401s of a refused login aside).
 */
async function otherBrowser(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 401/.test(m.text())) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  const close = async () => {
    await context.close();
    expect(errors).toEqual([]);
  };
  return { page, close };
}

async function addUserInUi(page: Page, user: TestUser) {
  await page.getByRole('button', { name: 'Add User' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add New User' });
  await dialog.getByLabel('Full Name').fill(user.fullName);
  await dialog.getByLabel('Username').fill(user.username);
  await dialog.getByLabel('Email').fill(user.email);
  await dialog.getByLabel('Password', { exact: true }).fill(user.password);
  await dialog.getByLabel('Confirm Password').fill(user.password);
  await dialog.getByRole('button', { name: 'Add User' }).click();
  await expect(page.getByText('User added successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
}

/** Adds a device in the Add New Device modal, assigned to `username` when given. */
async function addDeviceInUi(page: Page, deviceName: string, username?: string) {
  await page.getByRole('button', { name: 'Add Device' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add New Device' });
  await expect(dialog.getByRole('switch', { name: 'Device active' })).toBeChecked();
  await dialog.getByLabel('Device Name').fill(deviceName);
  if (username) {
    await dialog.getByRole('button', { name: /^Assign Users/ }).click();
    await dialog.getByRole('checkbox', { name: new RegExp(`^${username}\\b`) }).check();
    await page.keyboard.press('Escape');
    await expect(dialog.getByRole('button', { name: `Assign Users ${username}` })).toBeVisible();
  }
  await dialog.getByRole('button', { name: 'Add Device' }).click();
  await expect(page.getByText('Device added successfully').first()).toBeVisible();
  await expect(dialog).toBeHidden();
}

/** Copies a code from the Device Details modal and reads it back from the clipboard. */
async function copyCode(page: Page, label: string, toast: string): Promise<string> {
  await page
    .getByRole('dialog', { name: 'Device Details' })
    .getByRole('button', { name: `Copy ${label}` })
    .click();
  await expect(page.getByText(toast)).toBeVisible();
  return page.evaluate(() => navigator.clipboard.readText());
}

function rowOf(page: Page, text: string) {
  return page.getByRole('row').filter({ hasText: text });
}

const ingest = (page: Page, apiKey: string) =>
  page.request.post('/api/v1/ingest/health', {
    headers: { 'X-Api-Key': apiKey },
    data: { spo2: 97, heartRate: 72, temperature: 97.9, battery: 85 },
  });

test('admin runs the platform from the admin screens', async ({ page, browser, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const person = uniqueUser();
  const assignedName = `Band ${person.username}`;
  const deviceName = `Ring ${person.username}`;

  // Sign in: the overview with its figures and the system status.
  await logInViaForm(page, ADMIN.username, ADMIN.password, ADMIN_HOME);
  await expect(page.getByRole('heading', { name: 'Dashboard Overview' })).toBeVisible();
  await expect(page.getByText('Total Users').locator('xpath=following-sibling::dd')).toHaveText(/^\d[\d,]*$/);
  await expect(page.getByRole('region', { name: 'User Growth' }).getByText('Last 7 Days')).toBeVisible();
  await expect(page.getByRole('region', { name: 'System Status' })).toContainText(
    /All systems operational|Partial system degradation|System outage in progress/,
  );
  await expect(page.getByRole('region', { name: 'System Status' }).getByText('Database')).toBeVisible();

  // A user, a device assigned to them and one they will add with its code, all made in the UI.
  await page.getByRole('navigation').getByRole('link', { name: 'Users' }).first().click();
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  await addUserInUi(page, person);
  await expect(rowOf(page, person.email)).toContainText('User');
  await page.getByRole('navigation').getByRole('link', { name: 'Devices' }).first().click();
  await expect(page.getByRole('heading', { name: 'Device Management' })).toBeVisible();
  await addDeviceInUi(page, assignedName, person.username);
  await expect(rowOf(page, assignedName)).toContainText(person.username);
  await addDeviceInUi(page, deviceName);
  await expect(rowOf(page, deviceName)).toContainText('None');

  await rowOf(page, deviceName).getByRole('button', { name: 'View Details' }).click();
  const activationCode = await copyCode(page, 'Activation Code', 'Activation code copied!');
  const apiKey = await copyCode(page, 'API Auth Code', 'API auth code copied!');
  expect(activationCode).toMatch(/\S{6,}/);
  expect(apiKey).not.toBe(activationCode);
  await page.keyboard.press('Escape');

  // The user finds the assigned device, adds the other with its code, and sees a reading it sends.
  const { page: userPage, close: closeUserPage } = await otherBrowser(browser);
  await logInViaForm(userPage, person.username, person.password, /\/dashboard$/);
  await userPage.goto('/dashboard/devices');
  await expect(userPage.getByText(assignedName)).toBeVisible();
  await userPage.getByRole('button', { name: 'Add Device' }).click();
  const addDialog = userPage.getByRole('dialog', { name: 'Add Device' });
  await addDialog.getByLabel('Activation Code').fill(activationCode);
  await addDialog.getByLabel('Device Name').fill(deviceName);
  await addDialog.getByRole('button', { name: 'Add Device' }).click();
  await expect(userPage.getByText('Device added successfully!')).toBeVisible();
  await expect(userPage.getByText(deviceName)).toBeVisible();
  expect((await ingest(page, apiKey)).status()).toBe(202);
  await userPage.goto('/dashboard');
  await userPage.getByRole('button', { name: new RegExp(assignedName) }).click();
  await userPage.getByRole('option', { name: deviceName }).click();
  await expect(userPage.getByTestId('heartRate-value')).toHaveText('72');
  await closeUserPage();
  await page.reload();
  await expect(rowOf(page, deviceName)).toContainText(person.username);

  // Search, then edit the user in place.
  await page.getByRole('navigation').getByRole('link', { name: 'Users' }).first().click();
  await page.getByPlaceholder('Search users by name, email or role...').fill(person.username);
  await expect(page.getByText('1 users found')).toBeVisible();
  await rowOf(page, person.email).getByRole('button', { name: 'Edit User' }).click();
  const editDialog = page.getByRole('dialog', { name: 'Edit User' });
  await expect(editDialog.getByLabel('Full Name')).toHaveValue(person.fullName);
  await editDialog.getByLabel('Full Name').fill(`${person.fullName} Edited`);
  await editDialog.getByRole('button', { name: 'Update User' }).click();
  await expect(page.getByText('User updated successfully')).toBeVisible();
  await expect(rowOf(page, person.email)).toContainText(`${person.fullName} Edited`);

  // Reset the password: the old one stops working, the new one works.
  await rowOf(page, person.email).getByRole('button', { name: 'Reset Password' }).click();
  const resetDialog = page.getByRole('dialog', { name: 'Reset Password' });
  await expect(resetDialog).toContainText(
    `Resetting password for ${person.fullName} Edited (${person.email})`,
  );
  await resetDialog.getByLabel('New Password').fill(NEW_PASSWORD);
  await resetDialog.getByLabel('Confirm Password').fill(NEW_PASSWORD);
  await resetDialog.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Password reset successfully')).toBeVisible();
  const { page: loginPage, close: closeLoginPage } = await otherBrowser(browser);
  await loginPage.goto('/signin');
  await loginPage.getByLabel('Username or email').fill(person.username);
  await loginPage.getByLabel('Password').fill(person.password);
  await loginPage.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(loginPage.getByText('Invalid username/email or password')).toBeVisible();
  await expect(loginPage).toHaveURL(/\/signin$/);
  await logInViaForm(loginPage, person.username, NEW_PASSWORD, /\/dashboard$/);
  await closeLoginPage();

  // Toggle the device inactive: its readings are refused.
  await page.getByRole('navigation').getByRole('link', { name: 'Devices' }).first().click();
  const toggle = rowOf(page, deviceName).getByRole('switch', { name: `${deviceName} active` });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(page.getByText('Device updated successfully')).toBeVisible();
  await expect(toggle).not.toBeChecked();
  expect((await ingest(page, apiKey)).status()).toBe(403);

  // Delete the user.
  await page.getByRole('navigation').getByRole('link', { name: 'Users' }).first().click();
  await rowOf(page, person.email).getByRole('button', { name: 'Delete User' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText('Are you sure you want to delete this user?');
  await confirm.getByRole('button', { name: 'Delete User' }).click();
  await expect(page.getByText('User deleted successfully')).toBeVisible();
  await expect(rowOf(page, person.email)).toHaveCount(0);
});
