import type { APIRequestContext, Page } from '@playwright/test';
import { createUser, expect, signInWithTokens, type TestUser, test } from './fixtures.ts';
import {
  addDeviceForUser,
  type CreatedDevice,
  createDevice,
  ingestAlerts,
  ingestHealth,
  joinDeviceByCode,
} from './user-area-helpers.ts';

/** Issue 27, point 9: an alert's colour, read state, timeline and note never contradict each other. */

async function bearer(request: APIRequestContext, user: TestUser) {
  const res = await request.post('/api/v1/user/login', {
    data: { user: { username: user.username, password: user.password } },
  });
  const { data } = (await res.json()) as { data: { accessToken: string } };
  return { Authorization: `Bearer ${data.accessToken}` };
}

async function alertIdOf(request: APIRequestContext, user: TestUser, title: string): Promise<string> {
  const res = await request.post('/api/v1/alert/all', { headers: await bearer(request, user) });
  const { data } = (await res.json()) as { data: { alerts: { _id: string; alertTitle: string }[] } };
  const alert = data.alerts.find((a) => a.alertTitle === title);
  expect(alert, title).toBeDefined();
  return alert!._id;
}

const card = (page: Page, title: string) =>
  page.getByTestId('alerts-list').getByRole('listitem').filter({ hasText: title }).locator('> div');

const edge = (page: Page, title: string) =>
  card(page, title).evaluate((el) => getComputedStyle(el).borderLeftColor);

async function carerWithDevice(page: Page, name: string) {
  const user = await createUser(page);
  const band = await createDevice(page.request, `${name} ${user.username}`);
  await addDeviceForUser(page.request, user, band, name);
  return { user, band };
}

test('a critical vital alert’s card is red like a FALL’s, not yellow like a medium one', async ({ page }) => {
  const { user, band } = await carerWithDevice(page, 'Vitals band');
  const t = (s: number) => new Date(Date.now() - s * 1000).toISOString();
  // SpO2 93 for over a minute: medium; heart rate 35 (under the critical 40): high at once.
  await ingestHealth(page.request, band, [
    { spo2: 93, recordedAt: t(100) },
    { spo2: 93, recordedAt: t(30) },
    { heartRate: 35, recordedAt: t(20) },
  ]);
  await ingestAlerts(page.request, band, [{ alertType: 'FALL' }]);
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard/alerts');
  await expect(page.getByText('3 Alerts Found')).toBeVisible();
  const vital = card(page, 'Low heart rate');
  await expect(vital).toContainText('High priority');
  expect(await edge(page, 'Low heart rate')).toBe(await edge(page, 'Fall detected'));
  expect(await edge(page, 'Low heart rate')).not.toBe(await edge(page, 'Low blood oxygen'));
});

test('an alert another carer acknowledged does not say Unread', async ({ page, browser, baseURL }) => {
  const { user: ann, band } = await carerWithDevice(page, 'Shared band');
  const bobContext = await browser.newContext({ baseURL });
  const bobPage = await bobContext.newPage();
  const bob = await createUser(bobPage);
  await joinDeviceByCode(bobPage.request, ann, bob, band);
  await ingestAlerts(page.request, band, [{ alertType: 'SOS' }]);
  const id = await alertIdOf(page.request, ann, 'SOS pressed');
  const ack = await page.request.post(`/api/v1/alert/acknowledge/${id}`, {
    headers: await bearer(page.request, ann),
    data: {},
  });
  expect(ack.status()).toBe(200);

  await signInWithTokens(bobPage, bob.username, bob.password);
  await bobPage.goto('/dashboard/alerts');
  const sos = card(bobPage, 'SOS pressed');
  await expect(sos.getByTestId('alert-lifecycle')).toHaveText(`Acknowledged by ${ann.username} just now`);
  await expect(sos).not.toContainText('Unread');
  await expect(sos).toContainText('New to you');
  // Opened, it is read: neither marker.
  await sos.getByRole('button', { name: /Mark as read/ }).click();
  await expect(sos).not.toContainText('New to you');
  await bobContext.close();
});

test('acknowledge with a note: the limit is checked under the field, the note is on the timeline', async ({
  page,
}) => {
  const { user, band } = await carerWithDevice(page, 'Note band');
  await ingestAlerts(page.request, band, [{ alertType: 'FALL' }]);
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard/alerts');
  const fall = card(page, 'Fall detected');
  await fall.getByRole('button', { name: /^Acknowledge with note: Fall detected/ }).click();
  const note = fall.getByLabel('Note (optional)');
  await expect(note).toBeFocused();
  await note.fill('x'.repeat(501));
  await fall.getByRole('button', { name: 'Acknowledge with note', exact: true }).click();
  await expect(note).toHaveAttribute('aria-invalid', 'true');
  await expect(fall.getByRole('alert')).toHaveText('note is too long (at most 500 characters)');
  await expect(fall.getByTestId('alert-lifecycle')).toHaveCount(0);

  await note.fill('On my way, 10 minutes');
  await fall.getByRole('button', { name: 'Acknowledge with note', exact: true }).click();
  await expect(fall.getByTestId('alert-lifecycle')).toHaveText(`Acknowledged by ${user.username} just now`);
  await expect(note).toHaveCount(0);
  await fall.getByRole('button', { name: 'Details' }).click();
  await expect(fall.getByTestId('alert-timeline')).toContainText(
    `Acknowledged by ${user.username}: “On my way, 10 minutes”`,
  );
});

async function setEscalation(request: APIRequestContext, user: TestUser, device: CreatedDevice) {
  const headers = await bearer(request, user);
  const current = await request.post(`/api/v1/device/alarm-settings/${device._id}`, { headers });
  const { data } = (await current.json()) as { data: { settings: { escalation: object } } };
  const settings = {
    ...data.settings,
    escalation: { ...data.settings.escalation, repeatEveryMinutes: 2, backupAfterMinutes: 1 },
  };
  const res = await request.post(`/api/v1/device/update-alarm-settings/${device._id}`, {
    headers,
    data: { settings },
  });
  expect(res.status()).toBe(200);
}

test('the timeline numbers escalation steps from 1, with no gap for a backup time nobody is on', async ({
  page,
}) => {
  // The backup time (1 min) comes before the first repeat (2 min); it takes real minutes.
  test.setTimeout(240_000);
  const { user, band } = await carerWithDevice(page, 'Escalating band');
  await setEscalation(page.request, user, band);
  await ingestAlerts(page.request, band, [{ alertType: 'FALL' }]);
  const id = await alertIdOf(page.request, user, 'Fall detected');
  const headers = await bearer(page.request, user);
  await expect
    .poll(
      async () => {
        const res = await page.request.post(`/api/v1/alert/timeline/${id}`, { headers });
        const { data } = (await res.json()) as { data: { timeline: { kind: string }[] } };
        return data.timeline.filter((e) => e.kind === 'escalated').length;
      },
      { timeout: 180_000, intervals: [5_000] },
    )
    .toBeGreaterThan(0);
  await signInWithTokens(page, user.username, user.password);
  await page.goto('/dashboard/alerts');
  const fall = card(page, 'Fall detected');
  await fall.getByRole('button', { name: 'Details' }).click();
  const timeline = fall.getByTestId('alert-timeline');
  await expect(timeline).toContainText('Escalated: Step 1: not acknowledged, sent again');
  await expect(timeline).not.toContainText('Step 2');
});
