import { test as base, expect, type Page } from '@playwright/test';

export const ADMIN = { username: 'admin', password: 'Adm1nPassw0rd' } as const;
export const PASSWORD = 'Passw0rdOK';

export interface TestUser {
  fullName: string;
  username: string;
  email: string;
  password: string;
}

let counter = 0;
/** A user no other test uses. */
export function uniqueUser(): TestUser {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
  return {
    fullName: `Test User ${tag}`,
    username: `u${tag}`,
    email: `u${tag}@example.com`,
    password: PASSWORD,
  };
}

interface ConsoleGuard {
  /** Lets a test expect a console error (e.g. the browser's note about a 401 it provoked). */
  allow(pattern: RegExp): void;
}

/**
 * Every test fails on a console error or an uncaught page error; CSP violations are reported by
 * Chromium as console errors, so this also checks the app satisfies the server's CSP.
 */
export const test = base.extend<{ consoleGuard: ConsoleGuard }>({
  consoleGuard: [
    async ({ page }, use) => {
      const errors: string[] = [];
      const allowed: RegExp[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      await use({ allow: (pattern) => allowed.push(pattern) });
      expect(errors.filter((e) => !allowed.some((p) => p.test(e)))).toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

/** Creates the account through the API (faster than the form when the form is not under test). */
export async function createUser(page: Page, user: TestUser = uniqueUser()): Promise<TestUser> {
  const res = await page.request.post('/api/v1/user/create', {
    data: { user: { ...user, cnfPassword: user.password } },
  });
  expect(res.status()).toBe(201);
  return user;
}

/** Fills in the sign-up screen and presses Register (the caller checks what follows). */
export async function signUpViaForm(page: Page, user: TestUser) {
  await page.goto('/signup');
  await page.getByLabel('Full Name').fill(user.fullName);
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm Password').fill(user.password);
  await page.getByRole('button', { name: 'Register' }).click();
}

/** Logs in through the login screen and waits for the role's home. */
export async function logInViaForm(page: Page, username: string, password: string, home: RegExp) {
  await page.goto('/signin');
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(home);
}

/** Stores a fresh token pair in the page's origin, as a login would. */
export async function signInWithTokens(page: Page, username: string, password: string) {
  const res = await page.request.post('/api/v1/user/login', { data: { user: { username, password } } });
  expect(res.status()).toBe(200);
  const { data } = (await res.json()) as { data: { accessToken: string; refreshToken: string } };
  if (page.url() === 'about:blank') await page.goto('/demo');
  await page.evaluate(({ accessToken, refreshToken }) => {
    localStorage.setItem('access-token', accessToken);
    localStorage.setItem('refresh-token', refreshToken);
  }, data);
}
