import { AxeAudit } from './axe-helpers.ts';
import { createUser, expect, signInWithTokens, test } from './fixtures.ts';
import { addDeviceForUser, createDevice } from './user-area-helpers.ts';

/**
 * A browser without Web Bluetooth (Chromium on Linux without its WebBluetooth switch, like Firefox
 * or Safari) gets the explanation and the alternatives on the gateway page: 375 px, both themes,
 * screenshots in .tmp/screenshots, axe with no serious or critical finding.
 */
const DIR = '.tmp/screenshots';
const MOBILE = { width: 375, height: 900 };

for (const theme of ['light', 'dark'] as const) {
  test(`without Web Bluetooth: ${theme}`, async ({ page }) => {
    await page.setViewportSize(MOBILE);
    await page.emulateMedia({ colorScheme: theme });
    const user = await createUser(page);
    const device = await createDevice(page.request, `No BT ${user.username}`);
    await addDeviceForUser(page.request, user, device, 'Mum');
    await signInWithTokens(page, user.username, user.password);
    await page.goto(`/dashboard/devices/${device._id}/bluetooth`);
    await expect(
      page.getByRole('heading', { name: 'This browser cannot talk to Bluetooth wearables' }),
    ).toBeVisible();
    await page.screenshot({ path: `${DIR}/bluetooth-unsupported-${theme}-mobile.png`, fullPage: true });
    const audit = new AxeAudit(page, theme);
    await audit.check('bluetooth unsupported');
    expect(audit.blockingFindings()).toEqual([]);
  });
}
