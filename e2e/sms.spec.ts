import http from 'node:http';
import { createUser, expect, signInWithTokens, test } from './fixtures.ts';

/**
 * Issue 30: Profile → Notifications → SMS on a phone (375 px), light and dark: a number gets its
 * code from a local Twilio-compatible service (scripts/e2e-server.mjs points TWILIO_API_URL at
 * the server's port + 9), the code verifies it, and the test SMS shows the provider's SID.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210) + 9;
const sent: Array<{ to: string; body: string }> = [];
let twilio: http.Server;

test.beforeAll(async () => {
  twilio = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => {
      raw += c.toString('utf8');
    });
    req.on('end', () => {
      const form = new URLSearchParams(raw);
      const ok =
        req.url === '/2010-04-01/Accounts/ACe2e/Messages.json' && form.get('From') === '+15005550006';
      if (ok) sent.push({ to: form.get('To') ?? '', body: form.get('Body') ?? '' });
      res
        .writeHead(ok ? 201 : 404, { 'content-type': 'application/json' })
        .end(JSON.stringify(ok ? { sid: `SM${String(sent.length).padStart(32, '0')}` } : { code: 20404 }));
    });
  });
  await new Promise<void>((resolve) => twilio.listen(PORT, '127.0.0.1', resolve));
});
test.afterAll(async () => {
  await new Promise((resolve) => twilio.close(resolve));
});

for (const theme of ['light', 'dark'] as const) {
  test(`SMS card at 375 px, ${theme}: code, verify, test SMS`, async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.emulateMedia({ colorScheme: theme });
    const user = await createUser(page);
    await signInWithTokens(page, user.username, user.password);
    await page.goto('/dashboard/profile');
    const card = page.getByRole('region', { name: 'SMS', exact: true });
    const phone = `+1555020${theme === 'light' ? '1' : '2'}${String(Date.now()).slice(-3)}`;
    await card.getByLabel('Phone number').fill(phone);
    await card.getByRole('button', { name: 'Send code' }).click();
    await expect(card.getByText(/^Not verified yet/)).toBeVisible();
    const code = sent.findLast((m) => m.to === phone)?.body.match(/\d{6}/)?.[0] ?? '';
    await card.getByLabel('Code from the SMS').fill(code);
    await card.getByRole('button', { name: 'Verify' }).click();
    await expect(card.getByText(/^Verified/)).toBeVisible();
    await card.getByRole('button', { name: 'Send a test SMS' }).click();
    await expect(card.getByRole('status')).toContainText('Test SMS accepted by the provider (SM');
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
    ).toBe(true);
    await card.screenshot({ path: `.tmp/screenshots/sms-card-${theme}.png` });
  });
}
