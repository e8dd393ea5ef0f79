import { Secret, TOTP } from 'otpauth';
import { createUser, expect, logInViaForm, test } from './fixtures.ts';

const DIR = '.tmp/screenshots';
const STEP_MS = 30_000;

/** The code an authenticator app holding `key` shows `stepsAhead` 30 s steps from now. */
const codeFor = (key: string, stepsAhead = 0) =>
  new TOTP({ secret: Secret.fromBase32(key.replace(/\s/g, '')) }).generate({
    timestamp: Date.now() + stepsAhead * STEP_MS,
  });

for (const [theme, viewport] of [
  ['light', { width: 1280, height: 900 }],
  ['dark', { width: 375, height: 812 }],
] as const) {
  test(`two-factor sign-in: set up in the profile, then asked for a code at sign-in (${theme}, ${viewport.width} px)`, async ({
    page,
    consoleGuard,
  }) => {
    // The wrong password and the wrong code below are refused on purpose.
    consoleGuard.allow(/status of (400|401)/);
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme: theme });
    const user = await createUser(page);
    await logInViaForm(page, user.username, user.password, /\/dashboard$/);
    await page.goto('/dashboard/profile');

    const section = page.getByRole('region', { name: 'Two-Factor Sign-In' });
    await expect(section).toContainText('Off: your password alone signs you in.');
    await section.getByRole('button', { name: 'Set Up Two-Factor' }).click();
    await section.getByRole('button', { name: 'Continue' }).click();
    await expect(section.getByText('Password is required')).toBeVisible();
    await section.getByLabel('Current Password').fill('not-my-password');
    await section.getByRole('button', { name: 'Continue' }).click();
    await expect(
      section.getByRole('alert').filter({ hasText: 'Current password is incorrect' }),
    ).toBeVisible();
    await section.getByLabel('Current Password').fill(user.password);
    await section.getByRole('button', { name: 'Continue' }).click();

    await expect(section.getByRole('img', { name: /QR code/ })).toBeVisible();
    const key = (await section.locator('code').textContent()) ?? '';
    expect(key.replace(/\s/g, '')).toMatch(/^[A-Z2-7]{32}$/);
    await section.screenshot({ path: `${DIR}/two-factor-setup-${theme}-${viewport.width}.png` });
    await section.getByLabel('Authentication code').fill('12');
    await section.getByRole('button', { name: 'Turn On' }).click();
    await expect(section.getByText('Enter the 6-digit code or a recovery code')).toBeVisible();
    await section.getByLabel('Authentication code').fill(codeFor(key));
    await section.getByRole('button', { name: 'Turn On' }).click();

    const codes = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    const firstRecoveryCode = (await codes.first().textContent()) ?? '';
    await section.getByRole('button', { name: 'I saved my codes' }).click();
    await expect(section).toContainText('On: signing in asks for a code from your authenticator app.');
    await expect(section).toContainText('10 recovery codes left.');

    // Sign out; signing in now takes a code after the password.
    await page.evaluate(() => localStorage.clear());
    await page.goto('/signin');
    await page.getByLabel('Username or email').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByText('Enter the code from your authenticator app.')).toBeVisible();
    await page.screenshot({
      path: `${DIR}/two-factor-signin-${theme}-${viewport.width}.png`,
      fullPage: true,
    });
    await page.getByLabel('Authentication code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(
      page.locator('#main').getByRole('alert').filter({ hasText: 'Invalid or already used code' }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/signin$/);

    // The code of the next step: the one used to turn it on cannot be used again.
    await page.getByLabel('Authentication code').fill(codeFor(key, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // A recovery code works once instead.
    await page.evaluate(() => localStorage.clear());
    await page.goto('/signin');
    await page.getByLabel('Username or email').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByLabel('Authentication code').fill(firstRecoveryCode);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/dashboard/profile');
    await expect(page.getByRole('region', { name: 'Two-Factor Sign-In' })).toContainText(
      '9 recovery codes left.',
    );
  });
}
