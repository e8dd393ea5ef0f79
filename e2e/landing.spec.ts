import { expect, test } from './fixtures.ts';

test('demo alerts: a new one on top every 15 s, at most 5, click marks read', async ({ page }) => {
  await page.clock.install();
  await page.goto('/');
  const alerts = page.getByTestId('demo-alert');
  await expect(alerts).toHaveCount(3);
  const firstTitle = await alerts.first().locator('button span.font-semibold').first().textContent();

  await page.clock.runFor(15_000);
  await expect(alerts).toHaveCount(4);
  await expect(alerts.first()).toContainText('Elevated Heart Rate');
  await expect(alerts.first()).toContainText('Just now');
  await expect(alerts.nth(1)).toContainText(firstTitle ?? '');

  await page.clock.runFor(15_000);
  await expect(alerts.first()).toContainText('Daily Health Report');
  await expect(alerts).toHaveCount(5);
  await page.clock.runFor(15_000);
  await expect(alerts.first()).toContainText('Low Activity');
  await expect(alerts).toHaveCount(5);
  await page.clock.runFor(15_000);
  await expect(alerts.first()).toContainText('Irregular Rhythm');
  await expect(alerts).toHaveCount(5);
  await expect(alerts.first()).toHaveAttribute('data-type', 'alert');
  await expect(alerts.nth(1)).toHaveAttribute('data-type', 'warning');
  await expect(alerts.nth(2)).toHaveAttribute('data-type', 'info');

  await expect(page.getByTestId('demo-unread')).toHaveText('5 unread');
  await expect(alerts.first()).toHaveAttribute('data-read', 'false');
  await alerts.first().getByRole('button').click();
  await expect(alerts.first()).toHaveAttribute('data-read', 'true');
  await expect(page.getByTestId('demo-unread')).toHaveText('4 unread');
});

test('landing calls to action and the contact form confirmation', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByText('24/7', { exact: true })).toBeVisible();
  await expect(page.getByText('99.9%')).toBeVisible();
  await expect(page.getByText('<30s')).toBeVisible();
  await expect(page.getByText('1000+')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Get Started Free' })).toHaveAttribute('href', '/signup');
  await expect(page.getByRole('link', { name: 'Request a Demo' })).toHaveAttribute('href', '/demo');

  const form = page.getByRole('form', { name: 'Contact form' });
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expect(form.getByText('Name is required')).toBeVisible();
  await expect(form.getByText('Email is required')).toBeVisible();
  await expect(form.getByText('Message is required')).toBeVisible();
  await form.getByLabel('Name').fill('Ada Lovelace');
  await form.getByLabel('Email').fill('ada@example.com');
  await form.getByLabel('Message').fill('We would like a pilot for 20 residents.');
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('status').getByText('Thank you, Ada Lovelace!')).toBeVisible();

  await page.getByRole('link', { name: 'Get Started Free' }).click();
  await expect(page).toHaveURL(/\/signup$/);
});

test('the demo page validates its form and confirms the request', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Request a Demo' }).click();
  await expect(page).toHaveURL(/\/demo$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Request a Demo' })).toBeVisible();
  await page.getByRole('button', { name: 'Request Demo' }).click();
  for (const message of [
    'Name is required',
    'Email is required',
    'Organisation is required',
    'Message is required',
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await page.getByLabel('Name').fill('Grace Hopper');
  await page.getByLabel('Email').fill('grace@');
  await page.getByLabel('Organisation').fill('Sunrise Care Home');
  await page.getByLabel('Message').fill('Twenty residents, night shift alerts.');
  await page.getByRole('button', { name: 'Request Demo' }).click();
  await expect(page.getByText('Enter a valid email address')).toBeVisible();
  await page.getByLabel('Email').fill('grace@example.com');
  await page.getByRole('button', { name: 'Request Demo' }).click();
  await expect(page.getByRole('heading', { name: 'Demo request ready' })).toBeVisible();
  await expect(page.getByText('Sunrise Care Home')).toBeVisible();
});

test('an unknown path shows Page Not Found', async ({ page }) => {
  await page.goto('/this/does/not/exist');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
});
