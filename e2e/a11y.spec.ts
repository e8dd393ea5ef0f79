import type { Page } from '@playwright/test';
import { AxeAudit, type Theme } from './axe-helpers.ts';
import { ADMIN, createUser, expect, signInWithTokens, type TestUser, test } from './fixtures.ts';
import {
  addDeviceForUser,
  createDevice,
  ingestAlerts,
  ingestHealth,
  type Reading,
} from './user-area-helpers.ts';

/**
 * axe-core on every screen and every modal, in both themes (issue 13): any serious or critical
 * violation fails; a table of failing nodes by impact is printed per theme. One page per theme,
 * one sign-in per role.
 */

const DESKTOP = { width: 1280, height: 800 };
const DIALOG = '[role="dialog"]';

/** Two hours of readings every 5 minutes, the last one a critical SpO2 (so a card is out of range). */
function readings(now: number): Reading[] {
  return Array.from({ length: 24 }, (_, i) => ({
    recordedAt: new Date(now - (23 - i) * 5 * 60_000).toISOString(),
    heartRate: 70 + (i % 5),
    spo2: i === 23 ? 88 : 97,
    temperature: 97.8,
    battery: 80 - i,
  }));
}

/** A user with a live band (readings, urgent and battery alerts) and a ring silent for 45 minutes. */
async function seedUser(page: Page): Promise<TestUser> {
  const user = await createUser(page);
  const band = await createDevice(page.request, `Band ${user.username}`);
  await addDeviceForUser(page.request, user, band, "Grandma's wristband");
  const ring = await createDevice(page.request, `Ring ${user.username}`);
  await addDeviceForUser(page.request, user, ring, 'Spare ring');
  const now = Date.now();
  await ingestHealth(page.request, band, readings(now));
  await ingestHealth(page.request, ring, {
    recordedAt: new Date(now - 45 * 60_000).toISOString(),
    heartRate: 66,
    spo2: 97,
    temperature: 97.6,
    battery: 15,
  });
  await ingestAlerts(page.request, band, [
    { alertType: 'FALL' },
    { alertType: 'SOS' },
    { alertType: 'BATTERY' },
  ]);
  return user;
}

/** Opens a modal with `open`, audits only the dialog, closes it with Escape. */
async function auditModal(
  page: Page,
  axe: AxeAudit,
  screen: string,
  name: string | RegExp,
  open: () => Promise<void>,
) {
  await open();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  await axe.check(screen, DIALOG);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

async function publicScreens(page: Page, axe: AxeAudit) {
  for (const [screen, path, heading] of [
    ['landing', '/', 'Vital signs watched'],
    ['sign-in', '/signin', 'Login'],
    ['sign-up', '/signup', 'Create Account'],
    ['demo', '/demo', 'Request a Demo'],
    ['404', '/nowhere', 'Page Not Found'],
    ['user guide', '/guide', 'User Guide'],
    ['FAQ', '/faq', 'Frequently Asked Questions'],
    ['support', '/support', 'Support'],
    ['about', '/about', 'About VitalWatch'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toContainText(heading);
    await axe.check(screen);
  }
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByText('Username is required')).toBeVisible();
  await axe.check('sign-in: field errors');

  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeVisible();
  await axe.check('landing: mobile menu (375 px)');
  await page.setViewportSize(DESKTOP);
}

async function userScreens(page: Page, axe: AxeAudit, user: TestUser) {
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Health Dashboard' })).toBeVisible();
  await expect(page.getByRole('img', { name: /Line chart/ })).toBeVisible();
  await expect(page.getByTestId('recent-alerts')).toBeVisible();
  await axe.check('dashboard: overview');
  await page.getByText('Export', { exact: true }).click();
  await expect(page.getByRole('button', { name: 'Readings CSV' })).toBeVisible();
  await axe.check('dashboard: Export open');
  await page.getByText('Export', { exact: true }).click();
  await page.getByRole('button', { name: 'Temperature' }).click();
  await page.getByRole('button', { name: 'Clinical range' }).click();
  await expect(page.getByRole('img', { name: /Temperature \(axis/ })).toBeVisible();
  await axe.check('dashboard: chart with temperature, clinical range');
  await page.getByRole('button', { name: "Device Grandma's wristband" }).click();
  await expect(page.getByRole('listbox')).toBeVisible();
  await axe.check('dashboard: device picker open');
  await page.getByRole('option', { name: 'Spare ring' }).click();
  await expect(page.getByText('Last update was more than 15 minutes ago')).toBeVisible();
  await axe.check('dashboard: stale device');
  await page.getByRole('button', { name: new RegExp(`Account menu for ${user.username}`) }).click();
  await expect(page.getByRole('link', { name: 'Profile' })).toBeVisible();
  await axe.check('dashboard: user menu open');
  await page.keyboard.press('Escape');

  await page.goto('/dashboard/devices');
  await expect(page.getByRole('article')).toHaveCount(2);
  await axe.check('devices');
  await auditModal(page, axe, 'devices: Add Device modal (errors)', 'Add Device', async () => {
    await page.getByRole('button', { name: 'Add Device', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Add Device' }).click();
    await expect(page.getByText('Activation code is required')).toBeVisible();
  });
  await auditModal(page, axe, 'devices: Edit name modal', 'Edit name', () =>
    page.getByRole('button', { name: "Edit name of Grandma's wristband" }).click(),
  );
  await auditModal(page, axe, 'devices: Alarm settings modal', /^Alarm settings/, () =>
    page.getByRole('button', { name: "Alarm settings of Grandma's wristband" }).click(),
  );
  let sharedUrl = '';
  await auditModal(page, axe, 'devices: Share modal (a link made)', 'Share read-only', async () => {
    await page.getByRole('button', { name: "Share Grandma's wristband read-only" }).click();
    await page.getByRole('button', { name: 'Create link' }).click();
    sharedUrl = await page.getByLabel('Share link').inputValue();
  });
  await page.goto(sharedUrl);
  await expect(page.getByText(/^Shared read-only until /)).toBeVisible();
  await axe.check('shared device page (no account)');

  await page.goto('/dashboard/alerts');
  await expect(page.getByTestId('alerts-list')).toBeVisible();
  await axe.check('alerts');
  await page.getByTestId('alerts-list').getByRole('button', { name: 'Details' }).first().click();
  await expect(page.getByTestId('alert-timeline')).toBeVisible();
  await axe.check('alerts: timeline open');
  await page.getByRole('button', { name: /^Acknowledge with note: Fall detected/ }).click();
  await page.getByLabel('Note (optional)').fill('x'.repeat(501));
  await page.getByRole('button', { name: 'Acknowledge with note', exact: true }).click();
  await expect(page.getByText('note is too long (at most 500 characters)')).toBeVisible();
  await axe.check('alerts: acknowledge note with its error');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: /Date range/ }).click();
  await expect(page.getByTestId('calendar-day')).toHaveCount(42);
  await axe.check('alerts: date range picker', DIALOG);
  await page.keyboard.press('Escape');

  await page.goto('/dashboard/profile');
  await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
  await axe.check('profile');
  await page.getByRole('button', { name: /Edit Profile/ }).click();
  await page.getByRole('button', { name: /Change Password/ }).click();
  await page.getByLabel('New Password', { exact: true }).fill('abc');
  await page.getByLabel('Confirm New Password').fill('abd');
  await page.getByLabel('Confirm New Password').blur();
  await axe.check('profile: editing');
  const twoFactor = page.getByRole('region', { name: 'Two-Factor Sign-In' });
  await twoFactor.getByRole('button', { name: 'Set Up Two-Factor' }).click();
  await twoFactor.getByLabel('Current Password').fill(user.password);
  await twoFactor.getByRole('button', { name: 'Continue' }).click();
  await expect(twoFactor.getByRole('img', { name: /QR code/ })).toBeVisible();
  await axe.check('profile: two-factor setup');
}

async function adminScreens(page: Page, axe: AxeAudit, user: TestUser) {
  await signInWithTokens(page, ADMIN.username, ADMIN.password);
  await page.goto('/admin-dashboard');
  await expect(page.getByRole('region', { name: 'System Status' }).getByText('Database')).toBeVisible();
  await expect(page.getByRole('img', { name: /New users per day/ })).toBeVisible();
  await axe.check('admin: overview');

  await page.goto('/admin-dashboard/users');
  await expect(page.getByText(/\d+ users found/)).toBeVisible();
  await axe.check('admin: users');
  const userRow = page.getByRole('row').filter({ hasText: user.email });
  await auditModal(page, axe, 'admin users: Add New User modal', 'Add New User', () =>
    page.getByRole('button', { name: 'Add User' }).first().click(),
  );
  await auditModal(page, axe, 'admin users: Edit User modal', 'Edit User', () =>
    userRow.getByRole('button', { name: 'Edit User' }).click(),
  );
  await auditModal(page, axe, 'admin users: User Details modal', 'User Details', () =>
    userRow.getByRole('button', { name: 'View Details' }).click(),
  );
  await auditModal(page, axe, 'admin users: Reset Password modal', 'Reset Password', () =>
    userRow.getByRole('button', { name: 'Reset Password' }).click(),
  );
  await auditModal(page, axe, 'admin users: Delete User dialog', /^Delete /, () =>
    userRow.getByRole('button', { name: 'Delete User' }).click(),
  );

  await page.goto('/admin-dashboard/devices');
  await expect(page.getByText(/\d+ devices found/)).toBeVisible();
  await axe.check('admin: devices');
  const deviceRow = page.getByRole('row').nth(1);
  await auditModal(page, axe, 'admin devices: Add New Device modal', 'Add New Device', () =>
    page.getByRole('button', { name: 'Add Device' }).first().click(),
  );
  await deviceRow.getByRole('button', { name: 'Edit Device' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Device' });
  await edit.getByRole('button', { name: /^Assign Users/ }).click();
  await expect(edit.getByRole('checkbox').first()).toBeVisible();
  await axe.check('admin devices: Edit Device modal (users open)', DIALOG);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(edit).toBeHidden();
  await auditModal(
    page,
    axe,
    'admin devices: Device Details modal (regenerate asked)',
    'Device Details',
    async () => {
      await deviceRow.getByRole('button', { name: 'View Details' }).click();
      await page.getByRole('button', { name: 'Regenerate Activation Code' }).click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
    },
  );
  await auditModal(page, axe, 'admin devices: Alarm settings modal', /^Alarm settings/, () =>
    deviceRow.getByRole('button', { name: 'Alarm Settings' }).click(),
  );
  await auditModal(page, axe, 'admin devices: Delete Device dialog', /Delete/, () =>
    deviceRow.getByRole('button', { name: 'Delete Device' }).click(),
  );

  await page.goto('/admin-dashboard/audit');
  await expect(page.getByRole('heading', { name: 'Audit Log' })).toBeVisible();
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  await axe.check('admin: audit log');
}

for (const theme of ['light', 'dark'] as const satisfies readonly Theme[]) {
  test(`axe: every screen and modal, ${theme} theme`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize(DESKTOP);
    await page.emulateMedia({ colorScheme: theme });
    const axe = new AxeAudit(page, theme);
    const user = await seedUser(page);

    try {
      await publicScreens(page, axe);
      await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${theme}\\b`));
      await userScreens(page, axe, user);
      await adminScreens(page, axe, user);
      await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${theme}\\b`));
    } finally {
      // The table, also for the screens audited before a step failed.
      axe.report();
    }
    expect(axe.blockingFindings(), 'serious or critical axe violations').toEqual([]);
  });
}

test('focus never falls to <body>: marking an alert read, closing the user menu, toggling a device, regenerating a code', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  const user = await seedUser(page);
  const spare = await createDevice(page.request, `Focus ${user.username}`);
  await signInWithTokens(page, user.username, user.password);

  await page.goto('/dashboard');
  const recent = page.getByTestId('recent-alerts');
  const unread = recent.getByRole('button', { name: /Mark as read$/ });
  await expect(unread.first()).toBeVisible();
  const before = await unread.count();
  await unread.first().focus();
  await page.keyboard.press('Enter');
  await expect(unread).toHaveCount(before - 1);
  await expect(recent.locator(':focus')).toHaveCount(1);

  const account = page.getByRole('button', { name: `Account menu for ${user.username}` });
  await account.click();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Profile' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('link', { name: 'Profile' })).toBeHidden();
  await expect(account).toBeFocused();

  await signInWithTokens(page, ADMIN.username, ADMIN.password);
  await page.goto('/admin-dashboard/devices');
  const row = page.getByRole('row').filter({ hasText: spare.deviceName });
  const active = row.getByRole('switch', { name: `${spare.deviceName} active` });
  await active.focus();
  await page.keyboard.press('Space');
  await expect(active).not.toBeChecked();
  await expect(active).toBeFocused();
  await page.keyboard.press('Space');
  await expect(active).toBeChecked();
  await expect(active).toBeFocused();

  await row.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: 'Device Details' });
  const regenerate = details.getByRole('button', { name: 'Regenerate Activation Code' });
  await regenerate.click();
  await expect(details.getByRole('alertdialog').getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(details.getByRole('alertdialog')).toBeHidden();
  await expect(regenerate).toBeFocused();
});
