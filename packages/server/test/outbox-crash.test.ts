import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { unique } from './helpers.ts';
import { mailsIn } from './outbox-mail.ts';
import { addDevice, ingest, login, post, scratchDatabase, signupUser } from './process-api.ts';
import { serviceUrl } from './realtime-helpers.ts';
import { type ServerProcess, startServer, stop } from './server-process.ts';

const databaseUrl = serviceUrl('TEST_DATABASE_URL');
const ALERTS = 20;

/**
 * Real server processes on one PostgreSQL database, sharing one mail outbox directory. Process A
 * stores alerts and is killed (SIGKILL) before it sends any of their e-mails; B and C, started
 * after, send every one of them, each once.
 */
describe.skipIf(!databaseUrl)('alert e-mails survive a process killed before sending them', () => {
  const servers: ServerProcess[] = [];
  const admin = { username: unique('admin'), password: 'Adm1nPassw0rd' };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-outbox-'));
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await scratchDatabase(databaseUrl!);
    env = {
      DATABASE_URL: database.url,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      DATA_DIR: dataDir,
    };
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map(stop));
    await database?.drop();
  });

  /** Every mail in the shared outbox directory to `email`, folded header lines joined. */
  const everyMailTo = (email: string) =>
    mailsIn(path.join(dataDir, 'outbox'), email).map((m) => m.replace(/\r?\n[ \t]+/g, ' '));
  /** The alert mails to `email`: their alert id and Message-ID. */
  const mailsTo = (email: string) =>
    everyMailTo(email)
      .filter((m) => /X-VitalWatch-Alert-Id:/i.test(m))
      .map((m) => ({
        alertId: /X-VitalWatch-Alert-Id: (\S+)/i.exec(m)?.[1],
        messageId: /Message-ID: (\S+)/i.exec(m)?.[1],
      }));

  it('stores 20 SOS alerts on A, A is killed, and B and C send each alert e-mail exactly once', async () => {
    // A queues notifications but sends none (NOTIFICATION_POLL_MS=0): as if killed just after each commit.
    const a = await startServer({ ...env, NOTIFICATION_POLL_MS: '0' });
    servers.push(a);
    const { accessToken } = await login(a.url, admin);
    const carer = await signupUser(a.url);
    // Alert e-mails go only to a proved address: the carer follows the link sign-up mailed them.
    let token: string | undefined;
    await vi.waitFor(() => {
      token = everyMailTo(carer.user.email)
        .map((m) => /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(m)?.[1])
        .find(Boolean);
      expect(token).toBeDefined();
    });
    expect((await post(`${a.url}/api/v1/account/verify-email`, { token })).status).toBe(200);
    const optIn = await post(
      `${a.url}/api/v1/user/alert-emails`,
      { enabled: true },
      { authorization: `Bearer ${carer.accessToken}` },
    );
    expect(optIn.status).toBe(200);
    const device = await addDevice(a.url, accessToken, carer.user._id);
    for (let i = 0; i < ALERTS; i++) {
      const res = await ingest(a.url, device.apiAuthCode, 'alert', {
        alertType: 'SOS',
        messageId: `sos-${i}`,
      });
      expect(res.status).toBe(202);
    }
    a.child.kill('SIGKILL');
    await new Promise((r) => a.child.once('exit', r));
    expect(mailsTo(carer.user.email)).toEqual([]);

    const [b, c] = await Promise.all([
      startServer({ ...env, NOTIFICATION_POLL_MS: '100' }),
      startServer({ ...env, NOTIFICATION_POLL_MS: '100' }),
    ]);
    servers.push(b, c);
    const deadline = Date.now() + 30_000;
    while (mailsTo(carer.user.email).length < ALERTS && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    // A little longer: a duplicate would show up now.
    await new Promise((r) => setTimeout(r, 1000));
    const mails = mailsTo(carer.user.email);
    expect(mails).toHaveLength(ALERTS);
    expect(new Set(mails.map((m) => m.alertId)).size).toBe(ALERTS);
    expect(new Set(mails.map((m) => m.messageId)).size).toBe(ALERTS);
  }, 180_000);
});
