import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BACKUP_MESSAGES, BACKUP_TOKEN_HEADER } from '@vitalwatch/shared';
import { describe, expect, it } from 'vitest';
import { verifyBackup } from '../src/backup/format.ts';
import { BACKUP_TOKEN_FILE } from '../src/backup/service.ts';
import { adminPost } from './admin-helpers.ts';
import { scratchFile } from './backup-helpers.ts';
import { createAdmin, dbTargets, signup, useTestApp } from './helpers.ts';

describe.each(dbTargets())('POST /api/v1/admin/backup on $name', (target) => {
  const built = useTestApp(target);

  it('streams a whole backup file to an admin, encrypted with their passphrase, and audits it', async () => {
    const admin = await createAdmin(built());
    const passphrase = 'a passphrase of some length';
    const res = await adminPost(built(), 'backup', admin.auth, { passphrase });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="vitalwatch-.*\.vwb"$/);
    const file = scratchFile();
    writeFileSync(file, res.rawPayload);
    const header = await verifyBackup(() => file, passphrase);
    expect(header.tables.find((t) => t.name === 'users')?.rows).toBeGreaterThan(0);
    await expect(verifyBackup(() => file, undefined)).rejects.toThrow(/encrypted/);

    const audit = await built().app.inject({
      method: 'GET',
      url: '/api/v1/admin/audit?action=backup-download',
      headers: admin.auth,
    });
    expect(audit.json().data.entries[0]).toMatchObject({
      action: 'backup-download',
      actorId: admin.user._id,
      detail: { encrypted: true, via: 'admin' },
    });
  });

  it('npm run backup’s local token from DATA_DIR is accepted; a wrong one is not', async () => {
    const token = readFileSync(path.join(built().ctx.config.dataDir, BACKUP_TOKEN_FILE), 'utf8');
    const ok = await adminPost(built(), 'backup', { [BACKUP_TOKEN_HEADER]: token } as never, {});
    expect(ok.statusCode, ok.body).toBe(200);
    const file = scratchFile();
    writeFileSync(file, ok.rawPayload);
    expect((await verifyBackup(() => file, undefined)).schema.tag).toMatch(/^\d{4}_/);
    const wrong = await adminPost(built(), 'backup', { [BACKUP_TOKEN_HEADER]: '0'.repeat(64) } as never, {});
    expect(wrong.statusCode).toBe(401);
  });

  it('a guest gets 401, a user 403, a short passphrase 400 with its field', async () => {
    expect((await adminPost(built(), 'backup', undefined, {})).statusCode).toBe(401);
    const user = await signup(built());
    expect((await adminPost(built(), 'backup', user.auth, {})).statusCode).toBe(403);
    const admin = await createAdmin(built());
    const short = await adminPost(built(), 'backup', admin.auth, { passphrase: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().issues).toEqual([
      { path: 'passphrase', message: BACKUP_MESSAGES.passphraseTooShort },
    ]);
  });
});
