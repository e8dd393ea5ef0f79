import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { fhirValidator, type Json } from '../packages/server/test/fhir-validate.ts';
import { AxeAudit, type Theme } from './axe-helpers.ts';
import { createUser, expect, logInViaForm, signInWithTokens, test, uniqueUser } from './fixtures.ts';
import { mailsTo } from './outbox.ts';
import { addDeviceForUser, createDevice, ingestHealth, joinDeviceByCode } from './user-area-helpers.ts';

/** Issue 26, points 2-5 in Chromium, reading the mail the server writes to DATA_DIR/outbox. */

/** The link of the newest mail to `to` that has one for `page` (waits for the mail). */
async function linkFor(to: string, page: string, notIn: string[] = []): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(() => {
      const pattern = new RegExp(`http://[^\\s"<>]+/${page}\\?token=[A-Za-z0-9_-]+`, 'g');
      link = mailsTo(to)
        .flatMap((m) => m.match(pattern) ?? [])
        .find((l) => !notIn.includes(l));
      return link;
    })
    .toBeTruthy();
  return new URL(link!).pathname + new URL(link!).search;
}

const shot = (name: string) => `.tmp/screenshots/account-${name}.png`;

test('forgot password end to end: the mail, a new password, the used link says so', async ({ page }) => {
  const user = await createUser(page);
  await page.goto('/signin');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toContainText('If an account uses that address');

  const link = await linkFor(user.email, 'reset-password');
  await page.goto(link);
  await page.getByLabel('New Password', { exact: true }).fill('Brand9NewPass');
  await page.getByLabel('Confirm New Password').fill('Brand9NewPass');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('status')).toContainText('Your password has been changed.');

  await page.goto(link);
  await expect(page.getByRole('alert')).toHaveText('This link has already been used.');
  await expect(page.getByRole('link', { name: 'Send me a new link' })).toHaveAttribute(
    'href',
    '/forgot-password',
  );
  await logInViaForm(page, user.username, 'Brand9NewPass', /\/dashboard$/);
});

test('sessions: a second browser is listed and ended from Profile, and is signed out', async ({
  page,
  browser,
}) => {
  const user = await createUser(page);
  const other = await browser.newContext();
  const phone = await other.newPage();
  await logInViaForm(phone, user.username, user.password, /\/dashboard$/);

  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard/profile');
  const sessions = page.locator('section[aria-labelledby="sessions-title"]');
  // This browser, the phone, and the sign-up's own session (no browser has used it: "Unknown browser").
  await expect(sessions.getByRole('listitem')).toHaveCount(3);
  await expect(sessions.getByText('This browser')).toBeVisible();
  await expect(sessions.getByText('Unknown browser')).toBeVisible();
  await sessions.getByRole('button', { name: 'End session of Chrome on Linux' }).click();
  await expect(sessions.getByRole('listitem')).toHaveCount(2);

  await phone.reload();
  await expect(phone).toHaveURL(/\/signin/);
  await other.close();
});

test('Your data downloads one ZIP: the CSV parses and the FHIR Bundle validates', async ({ page }) => {
  const user = await createUser(page);
  const band = await createDevice(page.request, `Band ${user.username}`);
  await addDeviceForUser(page.request, user, band, 'Wristband');
  await ingestHealth(page.request, band, {
    recordedAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    heartRate: 72,
    spo2: 97,
    temperature: 98.6,
    battery: 80,
  });
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard/profile');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download my data' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^vitalwatch-my-data-\d{4}-\d\d-\d\d\.zip$/);
  const files = unzipSync(new Uint8Array(await readFile((await file.path())!)));
  const text = (name: string) => strFromU8(files[name] ?? new Uint8Array());
  expect(text('README.txt')).toContain('readings-raw.csv');
  expect(JSON.parse(text('profile.json'))).toMatchObject({ username: user.username });

  const rows = text(`devices/${band._id}/readings-raw.csv`)
    .trim()
    .split('\r\n')
    .map((l) => l.split(','));
  expect(rows[0]).toEqual([
    'recorded_at',
    'spo2_percent',
    'heart_rate_bpm',
    'temperature_f',
    'battery_percent',
  ]);
  expect(rows).toHaveLength(2);
  expect(Number.isNaN(Date.parse(rows[1]![0]!))).toBe(false);
  expect(rows[1]!.slice(1)).toEqual(['97', '72', '98.6', '80']);

  const bundle = JSON.parse(text(`devices/${band._id}/fhir-bundle.json`)) as Json;
  expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
  expect((bundle.entry as unknown[]).length).toBeGreaterThanOrEqual(5);
  expect((await fhirValidator())(bundle)).toEqual([]);
});

test('close my account: password, confirmation, signed out, device passed on, a mail confirms', async ({
  page,
}) => {
  const owner = await createUser(page);
  const carer = await createUser(page, uniqueUser());
  const band = await createDevice(page.request, `Band ${owner.username}`);
  await addDeviceForUser(page.request, owner, band, 'Mum');
  // A second person by the code waits until the owner confirms them (the care circle's rule).
  await joinDeviceByCode(page.request, owner, carer, band);

  await signInWithTokens(page, owner.username, owner.password);
  await page.goto('/dashboard/profile');
  const section = page.locator('section[aria-labelledby="close-account-title"]');
  await section.getByLabel('Password').fill(owner.password);
  await section.getByRole('button', { name: 'Close my account' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Close my account' }).click();
  // Signed out on a signed-in screen: the app goes to sign-in.
  await expect(page).toHaveURL(/\/(signin)?$/);
  await expect(
    page.locator('.Toastify__toast').filter({ hasText: 'Your account has been closed.' }),
  ).toBeVisible();
  await expect
    .poll(() => mailsTo(owner.email).some((m) => m.includes('Your VitalWatch account is closed')))
    .toBe(true);

  const login = await page.request.post('/api/v1/user/login', {
    data: { user: { username: owner.username, password: owner.password } },
  });
  expect(login.status()).toBe(401);
  // The carer now owns the device.
  await signInWithTokens(page, carer.username, carer.password);
  const token = await page.evaluate(() => localStorage.getItem('access-token'));
  const devices = await page.request.post('/api/v1/device/get-device', {
    headers: { authorization: `Bearer ${token}` },
  });
  const mine = ((await devices.json()) as { data: { devices: { _id: string; circleRole: string }[] } }).data
    .devices;
  expect(mine.find((d) => d._id === band._id)?.circleRole).toBe('owner');
});

async function screens(page: Page, theme: Theme) {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.emulateMedia({ colorScheme: theme });
  const axe = new AxeAudit(page, theme);
  await page.goto('/forgot-password');
  await expect(page.getByRole('button', { name: 'Send reset link' })).toBeVisible();
  await page.screenshot({ path: shot(`forgot-${theme}`), fullPage: true });
  await axe.check('forgot password');
  await page.goto('/reset-password?token=not-a-real-one');
  await expect(page.getByRole('alert')).toHaveText('This link is not valid.');
  await page.screenshot({ path: shot(`reset-invalid-${theme}`), fullPage: true });
  await axe.check('reset link not valid');

  const user = await createUser(page);
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard/profile');
  for (const id of ['sessions-title', 'your-data-title', 'close-account-title']) {
    const section = page.locator(`section[aria-labelledby="${id}"]`);
    await expect(section).toBeVisible();
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: shot(`${id.replace('-title', '')}-${theme}`) });
  }
  await expect(page.getByRole('listitem').filter({ hasText: 'This browser' })).toBeVisible();
  await axe.check('profile: sessions, your data, close');
  return axe.blockingFindings();
}

for (const theme of ['light', 'dark'] as const) {
  test(`account screens at 375 px in the ${theme} theme: screenshots, axe 0 serious`, async ({ page }) => {
    expect(await screens(page, theme), 'serious or critical axe violations').toEqual([]);
  });
}
