import { ADMIN, createUser, expect, logInViaForm, test, uniqueUser } from './fixtures.ts';

test('an admin finds a failed sign-in in the audit log, filtered by outcome and name', async ({ page }) => {
  const user = await createUser(page, uniqueUser());
  const wrong = await page.request.post('/api/v1/user/login', {
    data: { user: { username: user.username, password: 'not-the-password' } },
  });
  expect(wrong.status()).toBe(401);

  await logInViaForm(page, ADMIN.username, ADMIN.password, /\/admin-dashboard$/);
  await page.getByRole('link', { name: 'Audit Log' }).click();
  await expect(page).toHaveURL(/\/admin-dashboard\/audit$/);
  await expect(page.getByRole('heading', { name: 'Audit Log' })).toBeVisible();

  await page.getByLabel('Outcome').selectOption('failure');
  await page.getByLabel('Who (username)').fill(user.username);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  const rows = page.getByRole('table', { name: 'Audit log' }).getByRole('row');
  // The header row and the one failed sign-in.
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('Sign-in');
  await expect(rows.nth(1)).toContainText('Failed');
  await expect(rows.nth(1)).toContainText(user.username);
  await expect(rows.nth(1)).toContainText('wrong name or password');

  await page.getByLabel('Who (username)').fill(`${user.username}-nobody`);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByText('No audit entries found')).toBeVisible();
});
