import { readFile } from 'node:fs/promises';
import { ADMIN, expect, logInViaForm, test } from './fixtures.ts';

test('an admin downloads an encrypted backup from the overview, sees a failure and retries', async ({
  page,
  consoleGuard,
}) => {
  await logInViaForm(page, ADMIN.username, ADMIN.password, /\/admin-dashboard$/);
  const backup = page.getByRole('region', { name: 'Backup' });
  await expect(backup.getByRole('button', { name: 'Download backup' })).toBeVisible();

  // A passphrase too short is refused before anything is sent.
  await backup.getByLabel('Passphrase (optional)').fill('short');
  await expect(backup.getByText('The passphrase must be at least 12 characters')).toBeVisible();
  await expect(backup.getByRole('button', { name: 'Download backup' })).toBeDisabled();
  await backup.getByLabel('Passphrase (optional)').fill('a long passphrase for years');

  // The connection drops: the card says so and offers to try again.
  consoleGuard.allow(/Failed to load resource/);
  await page.route('**/api/v1/admin/backup', (route) => route.abort('connectionreset'));
  await backup.getByRole('button', { name: 'Download backup' }).click();
  await expect(backup.getByRole('alert')).toContainText('The backup could not be downloaded.');
  await expect(backup.getByRole('alert')).toContainText('The server could not be reached');
  await page.unroute('**/api/v1/admin/backup');

  const download = page.waitForEvent('download');
  await backup.getByRole('button', { name: 'Try again' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^vitalwatch-.+\.vwb$/);
  const bytes = await readFile(await file.path());
  // The preamble: the format's magic, its version, then the "encrypted" flag.
  expect(bytes.subarray(0, 8).toString()).toBe('VWBACKUP');
  expect(bytes[9]).toBe(1);
  await expect(page.getByText('Backup downloaded')).toBeVisible();
  await expect(backup.getByRole('alert')).toHaveCount(0);

  const token = await page.evaluate(() => localStorage.getItem('access-token'));
  const audit = await page.request.get('/api/v1/admin/audit?action=backup-download', {
    headers: { authorization: `Bearer ${token}` },
  });
  const entries = (await audit.json()).data.entries as { action: string; detail: unknown }[];
  expect(entries[0]).toMatchObject({ action: 'backup-download', detail: { encrypted: true, via: 'admin' } });
});
