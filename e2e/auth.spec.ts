import { ADMIN, createUser, expect, logInViaForm, signUpViaForm, test, uniqueUser } from './fixtures.ts';

test('sign up, then sign in, lands a user on /dashboard', async ({ page }) => {
  const user = uniqueUser();
  await signUpViaForm(page, user);

  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByRole('alert').filter({ hasText: 'Account created successfully' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('access-token'))).toBeTruthy();

  await page.getByLabel('Username or email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Health Dashboard' })).toBeVisible();
  await expect(page.getByText('Logged in successfully')).toBeVisible();
});

test('the admin signs in and lands on /admin-dashboard', async ({ page }) => {
  await logInViaForm(page, ADMIN.username, ADMIN.password, /\/admin-dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard Overview' })).toBeVisible();
});

test('sign-up validates on submit with the spec messages', async ({ page }) => {
  await page.goto('/signup');
  await page.getByRole('button', { name: 'Register' }).click();
  for (const message of [
    'Full Name is required',
    'Username is required',
    'Email is required',
    'Password is required',
    'Confirm your password',
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('Confirm Password').fill('different');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Enter a valid email address')).toBeVisible();
  await expect(
    page.getByText('Password must contain at least 8 characters, a number, uppercase & lowercase letter'),
  ).toBeVisible();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
});

test('a taken username shows the server message as an error toast', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/status of 409/);
  const taken = await createUser(page);
  const user = { ...uniqueUser(), username: taken.username };
  await signUpViaForm(page, user);
  await expect(page.locator('.Toastify').getByText('Username is already taken')).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);
});

test('wrong credentials show the generic server message', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/status of 401/);
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByText('Username is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();
  await page.getByLabel('Username or email').fill('nobody-here');
  await page.getByLabel('Password').fill('Wrong1Password');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.locator('.Toastify').getByText('Invalid username/email or password')).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/);
});

test('sign out clears the session and shows the toast', async ({ page }) => {
  const user = await createUser(page);
  await logInViaForm(page, user.username, user.password, /\/dashboard$/);
  await page.getByRole('button', { name: `Account menu for ${user.username}` }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  const toast = page.locator('.Toastify').getByText('Logged out successfully');
  await expect(toast).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/);
  expect(
    await page.evaluate(() => [localStorage.getItem('access-token'), localStorage.getItem('refresh-token')]),
  ).toEqual([null, null]);
  await page.keyboard.press('Alt+KeyT');
  await expect
    .poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('.Toastify'))))
    .toBe(true);
});

test('signing out while a request is under way lets it finish first: no refusal, no "session expired"', async ({
  page,
}) => {
  const user = await createUser(page);
  await logInViaForm(page, user.username, user.password, /\/dashboard$/);
  // The alerts page's requests are held at the browser until released, as on a slow network.
  const held: (() => Promise<void>)[] = [];
  const answered: string[] = [];
  await page.route('**/api/v1/alert/all**', (route) => {
    held.push(() => route.continue());
  });
  page.on('requestfinished', (request) => answered.push(new URL(request.url()).pathname));
  await page.getByRole('navigation').getByRole('link', { name: 'Alerts' }).first().click();
  await expect.poll(() => held.length).toBeGreaterThan(0);

  const logoutAnswered = page.waitForResponse('**/api/v1/user/logout');
  await page.getByRole('button', { name: `Account menu for ${user.username}` }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  // Released once the sign-out has reached the server, or after 1.5 s if it waits for them.
  await Promise.race([logoutAnswered, page.waitForTimeout(1500)]);
  await Promise.all(held.splice(0).map((release) => release()));

  await expect(page.locator('.Toastify').getByText('Logged out successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/);
  const logout = answered.indexOf('/api/v1/user/logout');
  expect(logout).toBeGreaterThan(answered.lastIndexOf('/api/v1/alert/all'));
  expect(answered.filter((path) => path === '/api/v1/user/refresh')).toEqual([]);
});

test('an expired access token is refreshed once, transparently', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/status of 401/);
  const user = await createUser(page);
  await logInViaForm(page, user.username, user.password, /\/dashboard$/);
  const before = await page.evaluate(() => localStorage.getItem('refresh-token'));
  await page.evaluate(() => localStorage.setItem('access-token', 'expired.or.forged'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Health Dashboard' })).toBeVisible();
  // The heading is already in the static first screen (dashboard.html), drawn before the app has
  // refreshed anything: wait for the tokens themselves.
  const tokens = () =>
    page.evaluate(() => [localStorage.getItem('access-token'), localStorage.getItem('refresh-token')]);
  await expect
    .poll(async () => {
      const [access, refresh] = await tokens();
      return access !== 'expired.or.forged' && refresh !== before;
    })
    .toBe(true);
  const after = await tokens();
  expect(after[0]).not.toBe('expired.or.forged');
  expect(after[1]).not.toBe(before);
});

test('a session that cannot be refreshed ends on /signin with tokens cleared', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/status of 401/);
  const user = await createUser(page);
  await logInViaForm(page, user.username, user.password, /\/dashboard$/);
  await page.evaluate(() => {
    localStorage.setItem('access-token', 'expired.or.forged');
    localStorage.setItem('refresh-token', 'revoked');
  });
  await page.reload();
  await expect(page).toHaveURL(/\/signin$/);
  expect(await page.evaluate(() => localStorage.getItem('access-token'))).toBeNull();
});
