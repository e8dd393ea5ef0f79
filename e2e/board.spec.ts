import type { APIRequestContext, Page } from '@playwright/test';
import { ADMIN, createUser, expect, signInWithTokens, type TestUser, test } from './fixtures.ts';
import { ServerProcess } from './server-process.ts';
import { type CreatedDevice, createDevice, ingestAlerts, ingestHealth } from './user-area-helpers.ts';

/** Issue 25: the care team's board, live in two browsers; the wall display's tone and outage state. */

const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
const NORMAL = { heartRate: 72, spo2: 97, temperature: 97.8, battery: 80 };

async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/v1/user/login', { data: { user: ADMIN } });
  return ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
}

/** `count` devices in one new team of these users, each with a normal reading now. */
async function teamWithDevices(
  request: APIRequestContext,
  users: TestUser[],
  count: number,
  tag: string,
  /** Devices (by index) that get no reading now. */
  quiet: number[] = [],
) {
  const devices: CreatedDevice[] = [];
  for (let i = 0; i < count; i++) {
    devices.push(await createDevice(request, `${tag} Room ${String(i + 1).padStart(2, '0')}`));
  }
  const ids = await Promise.all(
    users.map(async (u) => {
      const res = await request.post('/api/v1/user/login', {
        data: { user: { username: u.username, password: u.password } },
      });
      return ((await res.json()) as { data: { user: { _id: string } } }).data.user._id;
    }),
  );
  const res = await request.post('/api/v1/admin/teams', {
    headers: { Authorization: `Bearer ${await adminToken(request)}` },
    data: {
      name: `${tag} ward`,
      deviceIds: devices.map((d) => d._id),
      members: ids.map((userId) => ({ userId, role: 'primary' })),
    },
  });
  expect(res.status()).toBe(201);
  await Promise.all(
    devices.filter((_, i) => !quiet.includes(i)).map((d) => ingestHealth(request, d, NORMAL)),
  );
  return devices;
}

const tiles = (page: Page) => page.getByTestId('board-tile');
const tileOf = (page: Page, name: string) => tiles(page).filter({ has: page.getByRole('heading', { name }) });

test('a carer board of 30 devices: critical to the top within 2 s, acknowledged live on a second carer board, silent device offline after 15 minutes', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const [a, b] = [await createUser(page), await createUser(page)];
  const tag = a.username.slice(-6);
  const devices = await teamWithDevices(page.request, [a, b], 30, tag);

  await signInWithTokens(page, a.username, a.password);
  await page.goto('/dashboard/board');
  await expect(tiles(page)).toHaveCount(30);
  await expect(page.getByTestId('board-summary')).toHaveText('0 need attention · 30 normal');

  const other = await browser.newContext();
  const pageB = await other.newPage();
  await signInWithTokens(pageB, b.username, b.password);
  await pageB.goto('/dashboard/board');
  await expect(tiles(pageB)).toHaveCount(30);

  // Room 17 desaturates: critical before its alarm's 30 s delay has passed.
  const critical = devices[16]!;
  const sent = Date.now();
  await ingestHealth(page.request, critical, { ...NORMAL, spo2: 85 });
  await expect(tiles(page).first()).toContainText(critical.deviceName, { timeout: 2000 });
  const tookMs = Date.now() - sent;
  console.log(`critical device on top after ${tookMs} ms`);
  await expect(tiles(page).first()).toHaveAttribute('data-level', 'unacknowledged-high');
  await expect(tileOf(page, critical.deviceName)).toContainText('Critical');

  // An SOS on Room 05, acknowledged on carer A's board, shows acknowledged on carer B's.
  const sos = devices[4]!;
  await ingestAlerts(page.request, sos, [{ alertType: 'SOS' }]);
  const tileA = tileOf(page, sos.deviceName);
  await expect(tileA).toContainText('not acknowledged');
  await tileA.getByRole('button', { name: /^Acknowledge:/ }).click();
  await expect(tileOf(pageB, sos.deviceName)).toContainText('High priority · SOS', { timeout: 5000 });
  await expect(tileOf(pageB, sos.deviceName)).toContainText('· acknowledged', { timeout: 5000 });
  await expect(tileOf(pageB, sos.deviceName)).toHaveAttribute('data-level', 'acknowledged-high');

  // Room 30 stays silent: 15 minutes of device time later it is offline, and says so.
  const silent = devices[29]!;
  // The page's clock (what judges a reading's age) moves 16 minutes on; no reading arrives meanwhile.
  await page.clock.setSystemTime(Date.now() + 16 * 60_000);
  await expect(tileOf(page, silent.deviceName)).toHaveAttribute('data-level', 'offline');
  await expect(tileOf(page, silent.deviceName)).toContainText('Offline · Newest reading');
  await other.close();
});

test('wall display: one click, then a repeating tone for a new SOS; DATA NOT LIVE once the server stops', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const server = await ServerProcess.start(E2E_PORT + 1);
  const context = await browser.newContext({ baseURL: server.origin });
  try {
    const page = await context.newPage();
    // Count the tones the page starts through Web Audio.
    await page.addInitScript(() => {
      const w = window as unknown as { tones: number };
      w.tones = 0;
      const original = AudioContext.prototype.createOscillator;
      AudioContext.prototype.createOscillator = function (this: AudioContext) {
        w.tones += 1;
        return original.call(this);
      };
    });
    const carer = await createUser(page);
    const devices = await teamWithDevices(page.request, [carer], 3, carer.username.slice(-6));
    await signInWithTokens(page, carer.username, carer.password);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/dashboard/board?wall=1');
    await expect(tiles(page)).toHaveCount(3);
    await page.getByRole('button', { name: /Start wall display/ }).click();
    const tones = () => page.evaluate(() => (window as unknown as { tones: number }).tones);
    expect(await tones()).toBe(0);
    await ingestAlerts(page.request, devices[1]!, [{ alertType: 'SOS' }]);
    await expect.poll(tones, { timeout: 10_000 }).toBeGreaterThan(0);
    const first = await tones();
    await expect.poll(tones, { timeout: 20_000 }).toBeGreaterThan(first);
    await page.screenshot({ path: '.tmp/screenshots/board-wall.png' });

    await server.stop();
    await expect(page.getByTestId('data-not-live')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('data-not-live')).toContainText('DATA NOT LIVE');
    await page.screenshot({ path: '.tmp/screenshots/board-wall-not-live.png' });
  } finally {
    await context.close();
    await server.dispose();
  }
});

for (const theme of ['light', 'dark'] as const) {
  test(`board screenshots and axe: ${theme}, 1280 and 375 px`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.emulateMedia({ colorScheme: theme });
    const carer = await createUser(page);
    const devices = await teamWithDevices(page.request, [carer], 8, carer.username.slice(-6), [6, 7]);
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
    await ingestHealth(page.request, devices[1]!, { ...NORMAL, spo2: 86, heartRate: 118 });
    await ingestHealth(page.request, devices[2]!, { ...NORMAL, heartRate: 104 });
    await ingestHealth(page.request, devices[3]!, { ...NORMAL, battery: 8 });
    await ingestAlerts(page.request, devices[4]!, [{ alertType: 'FALL' }]);
    // Room 07 last sent 5 minutes ago (stale), Room 08 40 minutes ago (offline).
    for (const [i, m] of [
      [6, 5],
      [7, 40],
    ] as const) {
      await ingestHealth(page.request, devices[i]!, {
        ...NORMAL,
        heartRate: 70 + i,
        recordedAt: minutesAgo(m),
      });
    }
    await signInWithTokens(page, carer.username, carer.password);
    const { AxeAudit } = await import('./axe-helpers.ts');
    const audit = new AxeAudit(page, theme);
    for (const [label, viewport] of [
      ['1280', { width: 1280, height: 900 }],
      ['375', { width: 375, height: 812 }],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.goto('/dashboard/board');
      await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${theme}\\b`));
      await expect(tiles(page)).toHaveCount(8);
      await expect(tiles(page).first()).toHaveAttribute('data-level', 'unacknowledged-high');
      await page.screenshot({ path: `.tmp/screenshots/board-${theme}-${label}.png`, fullPage: true });
      await audit.check(`board ${label} px`);
    }
    audit.report();
    expect(audit.blockingFindings()).toEqual([]);
  });
}
