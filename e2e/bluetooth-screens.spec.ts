import { AxeAudit } from './axe-helpers.ts';
import { answerChooser, BleEmulation, pulseOximeterService } from './ble-emulation.ts';
import { createUser, expect, signInWithTokens, test } from './fixtures.ts';
import { addDeviceForUser, createDevice } from './user-area-helpers.ts';

/**
 * The Bluetooth gateway page in each of its states at 375 px, light and dark: screenshots in
 * .tmp/screenshots and axe with no serious or critical finding (bluetooth-unsupported.spec.ts: a
 * browser without Web Bluetooth).
 */
const DIR = '.tmp/screenshots';
const ADDRESS = '0A:0A:0A:0A:0A:01';

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--enable-features=WebBluetooth'],
  },
});

test('gateway states in both themes', async ({ page, context, browser, consoleGuard }) => {
  consoleGuard.allow(/ERR_INTERNET_DISCONNECTED|WebSocket connection|Failed to fetch/);
  const ble = await BleEmulation.start(browser);
  let reading = 0;
  await ble.addPeripheral({
    address: ADDRESS,
    name: 'Oximeter',
    services: [
      pulseOximeterService(() => {
        reading += 1;
        return [0x00, 97, 0x00, 60 + (reading % 20), 0x00];
      }),
      { uuid: 0x180f, characteristics: [{ uuid: 0x2a19, next: () => [81] }] },
    ],
  });
  await page.setViewportSize({ width: 375, height: 900 });
  const user = await createUser(page);
  const device = await createDevice(page.request, `Screens ${user.username}`);
  await addDeviceForUser(page.request, user, device, 'Mum');
  await signInWithTokens(page, user.username, user.password);
  await answerChooser(page, () => ADDRESS);
  const audits = { light: new AxeAudit(page, 'light'), dark: new AxeAudit(page, 'dark') };
  const shoot = async (state: string) => {
    // The header's theme switch: a reload would end the Bluetooth links.
    for (const theme of ['light', 'dark'] as const) {
      const other = theme === 'light' ? 'dark' : 'light';
      const toggle = page.getByRole('button', { name: `Switch to ${other} theme` });
      if (!(await toggle.isVisible()))
        await page.getByRole('button', { name: `Switch to ${theme} theme` }).click();
      await expect(toggle).toBeVisible();
      await page.screenshot({ path: `${DIR}/bluetooth-${state}-${theme}-mobile.png`, fullPage: true });
      await audits[theme].check(`bluetooth ${state}`);
    }
  };

  await page.goto(`/dashboard/devices/${device._id}/bluetooth`);
  await expect(page.getByText('None connected yet.')).toBeVisible();
  await shoot('ready');

  await page.getByRole('button', { name: 'Connect a Bluetooth wearable' }).click();
  const state = page.getByTestId('link-state');
  await expect(state).toHaveText('Connected');
  await expect(page.getByTestId('last-battery')).toHaveText('81%');
  await expect(page.getByTestId('sender-state')).toHaveText('Up to date');
  await expect(page.getByText(/\(this browser\)/)).toBeVisible();
  await shoot('connected');

  await context.setOffline(true);
  await expect(page.getByTestId('sender-state')).toContainText('Waiting for the network');
  await expect(page.getByTestId('queue-length')).not.toHaveText('0');
  await shoot('offline');
  await context.setOffline(false);

  ble.unreachable.add(ADDRESS);
  await ble.dropLinkAtNextRead(ADDRESS);
  await expect(page.getByText(/Last try:/)).toBeVisible({ timeout: 15_000 });
  await expect(state).toContainText('Reconnecting');
  await shoot('reconnecting');

  for (const audit of Object.values(audits)) {
    audit.report();
    expect(audit.blockingFindings()).toEqual([]);
  }
});
