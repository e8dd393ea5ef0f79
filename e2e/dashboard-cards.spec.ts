import type { Locator, Page } from '@playwright/test';
import { AxeAudit } from './axe-helpers.ts';
import { createUser, expect, signInWithTokens, test } from './fixtures.ts';
import { addDeviceForUser, createDevice, ingestHealth } from './user-area-helpers.ts';

/**
 * Issue 27, points 5–7: a reading without a vital is "No reading", never a red 0; the normal
 * range is marked on every bar; a stale device keeps what its last values meant, and nothing
 * green says "Live" beside it.
 */

const DIR = '.tmp/screenshots';
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

/** The colours in `card` that read as red (computed, whatever the CSS colour space): red well above green and blue. */
async function reds(card: Locator): Promise<string[]> {
  return card.evaluate((root) => {
    const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    const rgb = (css: string) => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      return ctx.getImageData(0, 0, 1, 1).data;
    };
    const found: string[] = [];
    for (const el of [root, ...root.querySelectorAll('*')]) {
      const style = getComputedStyle(el);
      for (const css of [style.color, style.backgroundColor]) {
        const [r = 0, g = 0, b = 0, a = 0] = rgb(css);
        if (a > 0 && r > g + 60 && r > b + 60) found.push(`${el.textContent?.slice(0, 30)}: ${css}`);
      }
    }
    return found;
  });
}

const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
/** The four cards with the stale notice above them. */
const cards = (page: Page) => card(page, 'SpO2').locator('xpath=../..');
const status = (page: Page, vital: string) => page.getByTestId(`${vital}-status`);
/** The status line beside 'Updated': the live connection, or what it can truthfully say. */
const liveStatus = (page: Page) => page.getByRole('status').filter({ hasText: /Live|Connected|Connecting/ });

async function pick(page: Page, name: string) {
  // The picker is named by its label and the device shown; a "Device offline" alert for the quiet
  // ring may appear meanwhile, its buttons named "Device offline…".
  await page.getByRole('button', { name: /^Device (Battery-only band|Quiet ring)$/ }).click();
  await page.getByRole('option', { name }).click();
}

for (const theme of ['light', 'dark'] as const) {
  for (const width of [375, 1280] as const) {
    test(`metric cards, ${theme}, ${width} px: a battery-only reading and a stale device with low values`, async ({
      page,
    }) => {
      test.setTimeout(90_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: theme });
      const user = await createUser(page);
      const band = await createDevice(page.request, `Band ${user.username}`);
      await addDeviceForUser(page.request, user, band, 'Battery-only band');
      const ring = await createDevice(page.request, `Ring ${user.username}`);
      await addDeviceForUser(page.request, user, ring, 'Quiet ring');
      // The band measured once, then sent its battery level alone: the newest reading has no vitals.
      await ingestHealth(page.request, band, [
        { recordedAt: minutesAgo(3), heartRate: 72, spo2: 97, temperature: 97.6, battery: 65 },
        { recordedAt: minutesAgo(1), battery: 64 },
      ]);
      // The ring went quiet 45 minutes ago on a low SpO2 and a low battery.
      await ingestHealth(page.request, ring, {
        recordedAt: minutesAgo(45),
        heartRate: 74,
        spo2: 94,
        temperature: 97.8,
        battery: 11,
      });
      await signInWithTokens(page, user.username, user.password);
      await page.goto('/dashboard');
      await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${theme}\\b`));
      // Axe on the page's content: the sticky header turns translucent once a screenshot scrolls,
      // and is audited with the whole app in a11y.spec.ts.
      const axe = new AxeAudit(page, theme);

      await pick(page, 'Battery-only band');
      await expect(page.getByTestId('battery-value')).toHaveText('64');
      await expect(liveStatus(page)).toHaveText('Live');
      await expect(page.getByText('Abnormal')).toHaveCount(0);
      for (const [vital, name, zero] of [
        ['spo2', 'SpO2', '0'],
        ['heartRate', 'Heart Rate', '0'],
        ['temperature', 'Temperature', '0.0'],
      ] as const) {
        await expect(page.getByTestId(`${vital}-value`)).toHaveText(zero);
        expect(await reds(card(page, name)), `${name} has no red`).toEqual([]);
        await expect(status(page, vital)).toHaveText('No reading');
      }
      // Averages over the readings that carried the vital: 72, not (72 + 0) / 2.
      await expect(page.getByText('Avg. Heart Rate').locator('..')).toContainText('72 BPM');
      await expect(page.getByText('Avg. SpO2').locator('..')).toContainText('97 %');
      // Every bar marks its normal range; SpO2's starts half-way along its 90–100 scale.
      await expect(page.getByTestId('spo2-normal-range')).toHaveText('Normal range: 95–100%');
      await expect(page.getByTestId('heartRate-normal-range')).toHaveText('Normal range: 60–100 BPM');
      await expect(page.getByTestId('temperature-normal-range')).toHaveText('Normal range: 95–98.4°F');
      await expect(page.getByTestId('battery-normal-range')).toHaveText('Normal range: 20–100%');
      await expect(page.getByTestId('spo2-normal-band')).toHaveAttribute('style', /left: 50%/);
      await cards(page).screenshot({ path: `${DIR}/cards-missing-${theme}-${width}.png` });
      expect((await axe.check('cards: battery-only reading', 'main')).blocking).toEqual([]);

      await pick(page, 'Quiet ring');
      await expect(page.getByTestId('stale-notice')).toContainText('No reading for 45 minutes');
      await expect(status(page, 'spo2')).toHaveText('Stale · was Abnormal');
      await expect(status(page, 'battery')).toHaveText('Stale · was Low Battery');
      await expect(status(page, 'heartRate')).toHaveText('Stale · was Normal');
      await expect(page.getByTestId('spo2-side')).toHaveText('↓ Low');
      // Muted, but still the abnormal colour.
      expect(await reds(page.getByTestId('spo2-bar'))).not.toEqual([]);
      expect(await reds(page.getByTestId('battery-bar'))).not.toEqual([]);
      // Connected to the server, but nothing says "Live" over 45-minute-old values.
      await expect(liveStatus(page)).toHaveText('Connected · no new readings');
      await page.screenshot({ path: `${DIR}/cards-stale-page-${theme}-${width}.png` });
      await cards(page).screenshot({ path: `${DIR}/cards-stale-${theme}-${width}.png` });
      expect((await axe.check('cards: stale device', 'main')).blocking).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });
  }
}
