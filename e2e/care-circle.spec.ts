import type { Page } from '@playwright/test';
import { AxeAudit } from './axe-helpers.ts';
import { createUser, expect, signInWithTokens, test, uniqueUser } from './fixtures.ts';
import { mailTo } from './outbox.ts';
import { addDeviceForUser, createDevice, ingestAlerts } from './user-area-helpers.ts';

/**
 * Issue 26, point 1: an owner invites a new person by e-mail (the real message, read from the
 * outbox); they sign up from its link, accept, and get the device's alerts live; the owner removes
 * them and their open dashboard loses the device at once. The circle and invitation screens at
 * 375 px in both themes, axe-clean.
 */

const DIR = '.tmp/screenshots';
test.describe.configure({ timeout: 180_000 });

/**
 * The screen `open` shows, in both themes (the app takes the theme as it loads): axe without a
 * serious finding, and its screenshot at 375 px.
 */
async function lookAt(page: Page, name: string, open: () => Promise<void>, scope?: string) {
  await page.setViewportSize({ width: 375, height: 740 });
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await open();
    await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${theme}\\b`));
    expect((await new AxeAudit(page, theme).check(name, scope)).blocking).toEqual([]);
    await page.screenshot({ path: `${DIR}/care-circle-${name}-${theme}-375.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('an owner invites a new person who signs up from the link and gets alerts live; removed, their dashboard loses the device at once', async ({
  page,
  browser,
  baseURL,
}) => {
  const owner = await createUser(page);
  const band = await createDevice(page.request, `Band ${owner.username}`);
  await addDeviceForUser(page.request, owner, band, "Dad's watch");
  await signInWithTokens(page, owner.username, owner.password);
  await page.goto('/dashboard/devices');
  await page.getByRole('button', { name: "Care circle of Dad's watch: 1 person" }).click();
  const circle = page.getByRole('dialog', { name: 'Care circle' });
  const invitee = uniqueUser();
  await circle.getByLabel('E-mail').fill(invitee.email);
  await circle.getByRole('button', { name: 'Send invitation' }).click();
  await expect(circle.getByText(`${invitee.email} · Carer`)).toBeVisible();

  // The real message, with its single-use link.
  const mail = await mailTo(invitee.email, /invites you to join the care circle of Dad's watch/);
  const link = mail.match(/https?:\/\/\S+\/invitation\/[A-Za-z0-9_-]{43}/)?.[0];
  expect(link).toBeDefined();
  const path = new URL(link as string).pathname;

  const context = await browser.newContext({ baseURL });
  const them = await context.newPage();
  await them.goto(path);
  await expect(them.getByText("invites you to the care circle of Dad's watch as carer")).toBeVisible();
  await lookAt(them, 'invitation', async () => {
    await them.goto(path);
    await expect(them.getByRole('link', { name: 'Create an account' })).toBeVisible();
  });
  await them.setViewportSize({ width: 1280, height: 800 });

  // Sign up from the link (the spec's form), then sign in, and back to the invitation.
  await them.getByRole('link', { name: 'Create an account' }).click();
  await them.getByLabel('Full Name').fill(invitee.fullName);
  await them.getByLabel('Username').fill(invitee.username);
  await them.getByLabel('Email').fill(invitee.email);
  await them.getByLabel('Password', { exact: true }).fill(invitee.password);
  await them.getByLabel('Confirm Password').fill(invitee.password);
  await them.getByRole('button', { name: 'Register' }).click();
  await expect(them).toHaveURL(/\/signin\?next=/);
  await them.getByLabel('Username or email').fill(invitee.username);
  await them.getByLabel('Password').fill(invitee.password);
  await them.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(them).toHaveURL(new RegExp(`${path}$`));
  await them.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(them).toHaveURL(/\/dashboard\/devices$/);
  await expect(them.getByRole('article', { name: "Dad's watch" })).toBeVisible();

  // On their dashboard, the device's alert arrives live.
  await them.goto('/dashboard');
  // The dashboard loads its health data first: on a busy machine that takes a while.
  await expect(them.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible({ timeout: 30_000 });
  await ingestAlerts(page.request, band, [{ alertType: 'SOS' }]);
  await expect(them.getByTestId('urgent-banner')).toContainText('SOS pressed');

  // The owner sees them in the circle, and removes them: their open dashboard loses the device.
  const viewer = uniqueUser().email;
  const openCircle = async () => {
    await page.goto('/dashboard/devices');
    await page.getByRole('button', { name: "Care circle of Dad's watch: 2 people" }).click();
    await expect(circle.getByText(invitee.fullName)).toBeVisible();
  };
  await openCircle();
  await expect(circle.getByText('Carer · Primary: every alert')).toHaveCount(1);
  await circle.getByLabel('E-mail').fill(viewer);
  await circle.getByRole('combobox', { name: 'Role of the invited person' }).selectOption('viewer');
  await circle.getByRole('button', { name: 'Send invitation' }).click();
  await expect(circle.getByText(`${viewer} · Viewer`)).toBeVisible();
  await lookAt(page, 'circle', openCircle, '[role="dialog"]');
  await page.setViewportSize({ width: 1280, height: 800 });
  await circle.getByRole('button', { name: `Remove ${invitee.fullName}` }).click();
  await expect(circle.getByText(invitee.fullName)).toHaveCount(0);
  await expect(them.getByText('No devices connected')).toBeVisible();

  // The used link says so and offers to ask for a new one.
  await lookAt(them, 'invitation-used', async () => {
    await them.goto(path);
    await expect(them.getByText('This invitation has already been used.')).toBeVisible();
  });
  await them.getByRole('button', { name: `Ask ${owner.fullName} for a new invitation` }).click();
  await expect(them.getByText(`We asked ${owner.fullName} to send you a new invitation.`)).toBeVisible();
  await mailTo(owner.email, /asks for a new invitation/);
  await context.close();
});
