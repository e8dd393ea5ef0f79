import type { APIRequestContext, Page } from '@playwright/test';
import { AxeAudit } from './axe-helpers.ts';
import { ADMIN, createUser, expect, signInWithTokens, type TestUser, test } from './fixtures.ts';
import {
  addDeviceForUser,
  createDevice,
  ingestAlerts,
  ingestHealth,
  joinDeviceByCode,
} from './user-area-helpers.ts';

/**
 * Issue 27, point 12: the share page says when its newest reading was taken and names a malformed
 * link in words; a carer's rename is their own; the audit log names devices and records a PDF
 * as a PDF; alarm settings are read only but to the device's owner and admins.
 */

const DIR = '.tmp/screenshots';
// Each test also takes its screen's screenshots (375 and 1280 px, light and dark).
test.describe.configure({ timeout: 180_000 });

async function bearer(request: APIRequestContext, user: { username: string; password: string }) {
  const res = await request.post('/api/v1/user/login', { data: { user } });
  expect(res.status()).toBe(200);
  return {
    Authorization: `Bearer ${((await res.json()) as { data: { accessToken: string } }).data.accessToken}`,
  };
}

/** An owner (the first to add the device by its code) and a carer (the second). */
async function ownerAndCarer(page: Page) {
  const owner = await createUser(page);
  const carer = await createUser(page);
  const band = await createDevice(page.request, `Band ${owner.username}`);
  await addDeviceForUser(page.request, owner, band, 'Living room band');
  await joinDeviceByCode(page.request, owner, carer, band);
  return { owner, carer, band };
}

/** axe on the screen as it is, in both themes: no serious or critical finding. */
async function axeClean(page: Page, screen: string, scope?: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    expect((await new AxeAudit(page, theme).check(screen, scope)).blocking).toEqual([]);
  }
}

async function shots(page: Page, name: string, open: () => Promise<void>) {
  for (const theme of ['light', 'dark'] as const) {
    for (const width of [375, 1280]) {
      await page.emulateMedia({ colorScheme: theme });
      await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
      await open();
      await page.screenshot({ path: `${DIR}/${name}-${theme}-${width}.png`, fullPage: true });
    }
  }
}

test('the share page says when the newest reading was taken: the time and how long ago', async ({ page }) => {
  const user = await createUser(page);
  const band = await createDevice(page.request, `Band ${user.username}`);
  await addDeviceForUser(page.request, user, band, 'Wristband');
  const recordedAt = new Date(Date.now() - 3 * 3_600_000 - 60_000);
  recordedAt.setMilliseconds(0);
  await ingestHealth(page.request, band, { recordedAt: recordedAt.toISOString(), heartRate: 72, spo2: 97 });
  const made = await page.request.post('/api/v1/share/create', {
    headers: await bearer(page.request, user),
    data: { deviceId: band._id, days: 7 },
  });
  expect(made.status()).toBe(201);
  const { token } = ((await made.json()) as { data: { token: string } }).data;
  await page.goto(`/shared/${token}`);
  const newest = page.getByTestId('newest-reading');
  await expect(newest).toHaveAttribute('datetime', recordedAt.toISOString());
  const clock = await page.evaluate(
    (iso) => new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit' }).format(new Date(iso)),
    recordedAt.toISOString(),
  );
  await expect(newest).toContainText(clock);
  await expect(page.getByText(/^Newest reading taken .+ \(3 hours ago\)$/)).toBeVisible();
  await axeClean(page, 'shared page with its newest reading');
  await shots(page, 'shared-newest', () => page.goto(`/shared/${token}`).then(() => newest.waitFor()));
});

test('a malformed share link says in words that it is not valid and what to do', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/status of 400/);
  await page.goto('/shared/abc');
  await expect(
    page.getByText('This link is not valid. It may have been cut short or mistyped.'),
  ).toBeVisible();
  await expect(page.getByText(/ask the person who shared it for a new one/)).toBeVisible();
  await expect(page.getByText(/too_small|at least 20|Too small/i)).toHaveCount(0);
  await axeClean(page, 'malformed share link');
  await shots(page, 'shared-malformed', () =>
    page.goto('/shared/abc').then(() => page.getByText(/This link is not valid/).waitFor()),
  );
});

test("a carer's new name is theirs alone; the owner and everyone else keep the shared name", async ({
  page,
  browser,
  baseURL,
}) => {
  const { owner, carer, band } = await ownerAndCarer(page);
  await signInWithTokens(page, carer.username, carer.password);
  await page.goto('/dashboard/devices');
  await page.getByRole('button', { name: 'Edit name of Living room band' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit name' });
  await expect(dialog).toContainText('Only you see this name');
  await axeClean(page, "carer's Edit name", '[role="dialog"]');
  await dialog.getByLabel('Device Name').fill('Dad');
  await dialog.getByRole('button', { name: 'Save' }).click();
  const card = page.getByRole('article', { name: 'Dad' });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Shared name: Living room band');
  await expect(card).not.toContainText('Owner');
  await axeClean(page, 'devices with a nickname');
  await page.goto(`/dashboard?device=${band._id}`);
  await expect(page.getByRole('button', { name: 'Device Dad' })).toBeVisible();
  await shots(page, 'devices-nickname', () => page.goto('/dashboard/devices').then(() => card.waitFor()));

  // The carer's alerts name the device as they do: in the toast, the urgent bar and the lists.
  await page.goto(`/dashboard?device=${band._id}`);
  await expect(page.getByRole('status').filter({ hasText: 'Connected · no new readings' })).toBeVisible();
  await ingestAlerts(page.request, band, [{ alertType: 'SOS', alertTitle: 'SOS pressed' }]);
  await expect(
    page.locator('.Toastify__toast').filter({ hasText: 'High priority · Dad: SOS pressed' }),
  ).toBeVisible();
  const bar = page.getByRole('alert', { name: 'Urgent alerts' });
  await expect(bar).toContainText('Dad');
  await expect(bar).not.toContainText('Living room band');
  await page.goto('/dashboard/alerts');
  await expect(page.getByRole('main')).toContainText(/SOS pressed[\s\S]*Dad ·/);

  const other = await browser.newContext({ baseURL });
  const ownerPage = await other.newPage();
  await signInWithTokens(ownerPage, owner.username, owner.password);
  await ownerPage.goto('/dashboard/devices');
  const ownCard = ownerPage.getByRole('article', { name: 'Living room band' });
  await expect(ownCard).toContainText('Owner');
  await expect(ownerPage.getByText('Dad')).toHaveCount(0);
  await other.close();
});

test('the audit log names the device (its id kept) and records a PDF report as a PDF', async ({ page }) => {
  const user = await createUser(page);
  const band = await createDevice(page.request, `Band ${user.username}`);
  await addDeviceForUser(page.request, user, band, `Kitchen band ${user.username}`);
  const to = new Date();
  const from = new Date(to.getTime() - 86_400_000);
  const pdf = await page.request.get(
    `/api/v1/export/report/${band._id}?from=${from.toISOString()}&to=${to.toISOString()}&timeZone=UTC`,
    { headers: await bearer(page.request, user) },
  );
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toContain('application/pdf');

  await signInWithTokens(page, ADMIN.username, ADMIN.password);
  await page.goto('/admin-dashboard/audit');
  await page.getByLabel('Who (username)').fill(user.username);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  const row = page
    .getByRole('table', { name: 'Audit log' })
    .getByRole('row')
    .filter({ hasText: 'kind: report' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`Kitchen band ${user.username}`);
  await expect(row.getByTitle(`device ${band._id}`)).toBeVisible();
  await expect(row).toContainText('format: pdf');
  await expect(row).not.toContainText('format: csv');
  await axeClean(page, 'audit log with names');
  await shots(page, 'audit-names', () =>
    page.goto('/admin-dashboard/audit').then(() => page.getByRole('table', { name: 'Audit log' }).waitFor()),
  );
});

async function openAlarmSettings(page: Page, user: TestUser, name: string) {
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard/devices');
  await page.getByRole('button', { name: `Alarm settings of ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: /^Alarm settings/ });
  await expect(dialog.getByRole('region', { name: 'Low blood oxygen' })).toBeVisible();
  return dialog;
}

test('alarm settings: a carer sees them explained, read only, with who can change them; the owner and an admin edit them', async ({
  page,
  browser,
  baseURL,
}) => {
  const { owner, carer, band } = await ownerAndCarer(page);
  await page.setViewportSize({ width: 375, height: 740 });
  const dialog = await openAlarmSettings(page, carer, 'Living room band');
  await expect(dialog.getByTestId('alarm-settings-read-only')).toHaveText(
    "Only the device's owner or an admin can change these settings. You can see them here.",
  );
  await expect(dialog.getByRole('spinbutton')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await axeClean(page, 'alarm settings, read only', '[role="dialog"]');
  await expect(dialog.getByRole('region', { name: 'Low blood oxygen' })).toContainText(
    'Alert when readings stay below 95 % for 30 s; at once at 91 % or below.',
  );
  // Laid out for the phone: nothing in the dialog scrolls sideways.
  const sideways = await dialog.evaluate((root) =>
    [root, ...root.querySelectorAll('*')]
      .filter((el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX))
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.outerHTML.slice(0, 80)),
  );
  expect(sideways).toEqual([]);
  const box = await dialog.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  await shots(page, 'alarm-settings-read-only', async () => {
    await page.goto('/dashboard/devices');
    await page.getByRole('button', { name: 'Alarm settings of Living room band' }).click();
    await dialog.getByRole('region', { name: 'Low blood oxygen' }).waitFor();
  });

  const ownerContext = await browser.newContext({ baseURL, viewport: { width: 375, height: 740 } });
  const ownerPage = await ownerContext.newPage();
  const ownerDialog = await openAlarmSettings(ownerPage, owner, 'Living room band');
  await expect(ownerDialog.getByTestId('alarm-settings-read-only')).toHaveCount(0);
  await ownerDialog.getByLabel('Low blood oxygen: Alarm limit (%)').fill('93');
  await ownerDialog.getByRole('button', { name: 'Save' }).click();
  await expect(ownerDialog).toBeHidden();
  await shots(ownerPage, 'alarm-settings-owner', async () => {
    await ownerPage.goto('/dashboard/devices');
    await ownerPage.getByRole('button', { name: 'Alarm settings of Living room band' }).click();
    await ownerPage.getByLabel('Low blood oxygen: Alarm limit (%)').waitFor();
  });
  await ownerContext.close();

  await signInWithTokens(page, ADMIN.username, ADMIN.password);
  await page.goto('/admin-dashboard/devices');
  const adminRes = await page.request.post(`/api/v1/device/alarm-settings/${band._id}`, {
    headers: await bearer(page.request, ADMIN),
  });
  expect(((await adminRes.json()) as { data: { canChange: boolean } }).data.canChange).toBe(true);
  const carerRes = await page.request.post(`/api/v1/device/alarm-settings/${band._id}`, {
    headers: await bearer(page.request, carer),
  });
  const { settings } = ((await carerRes.json()) as { data: { settings: { conditions: object } } }).data;
  expect(JSON.stringify(settings)).toContain('"limit":93');
});
