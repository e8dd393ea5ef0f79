import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from './helpers.ts';
import { addDevice, ingest, login, post, scratchDatabase, signupUser } from './process-api.ts';
import {
  type ClientSocket,
  connectSocket,
  disconnected,
  recordEvents,
  serviceUrl,
} from './realtime-helpers.ts';
import { type ServerProcess, startServer, stop } from './server-process.ts';

const databaseUrl = serviceUrl('TEST_DATABASE_URL');
const redisUrl = serviceUrl('TEST_REDIS_URL');

describe.skipIf(!databaseUrl || !redisUrl)('two server processes sharing PostgreSQL and Redis', () => {
  const servers: ServerProcess[] = [];
  const sockets: ClientSocket[] = [];
  const admin = { username: unique('admin'), password: 'Adm1nPassw0rd' };
  let database: Awaited<ReturnType<typeof scratchDatabase>>;

  beforeAll(async () => {
    database = await scratchDatabase(databaseUrl!);
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl!,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      // Out of the tests' way: a socket closed here was closed by another process's notice.
      SOCKET_RECHECK_SECONDS: '3600',
    };
    // One after the other: the first applies the migrations and creates the admin.
    servers.push(await startServer({ ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'vw-a-')) }));
    servers.push(await startServer({ ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'vw-b-')) }));
  }, 120_000);

  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all(servers.map(stop));
    await database?.drop();
  });

  it('delivers a reading and an alert ingested on process A to a socket on process B, and only there', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    expect(a.child.pid).not.toBe(b.child.pid);
    const { accessToken } = await login(a.url, admin);
    const watcher = await signupUser(a.url);
    const bystander = await signupUser(b.url);
    const device = await addDevice(a.url, accessToken, watcher.user._id);
    const bystanderDevice = await addDevice(a.url, accessToken, bystander.user._id);

    const onB = await connectSocket(b.url, { token: watcher.accessToken });
    const bystanderOnB = await connectSocket(b.url, { token: bystander.accessToken });
    sockets.push(onB, bystanderOnB);
    const health = recordEvents(onB, 'healthDataUpdate');
    const alerts = recordEvents(onB, 'alertsUpdate');
    const bystanderHealth = recordEvents(bystanderOnB, 'healthDataUpdate');

    expect((await ingest(a.url, device.apiAuthCode, 'health', { heartRate: 66, spo2: 97 })).status).toBe(202);
    expect((await ingest(a.url, device.apiAuthCode, 'alert', { alertType: 'SOS' })).status).toBe(202);

    const [record] = await health.waitFor(1, 10_000);
    expect(record).toMatchObject({ device: device._id, heartRate: 66, spo2: 97 });
    const [batch] = await alerts.waitFor(1, 10_000);
    expect(batch).toEqual([expect.objectContaining({ device: device._id, alertType: 'SOS' })]);

    // Later news for the bystander, also ingested on A: it arrives, and nothing of the watcher's came first.
    expect((await ingest(a.url, bystanderDevice.apiAuthCode, 'health', { heartRate: 81 })).status).toBe(202);
    expect(await bystanderHealth.waitFor(1, 10_000)).toEqual([
      expect.objectContaining({ device: bystanderDevice._id, heartRate: 81 }),
    ]);
  });

  it('closes a user’s socket on process B as soon as an admin resets the password on process A', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const { accessToken } = await login(a.url, admin);
    const watcher = await signupUser(a.url);
    const bystander = await signupUser(a.url);
    const onB = await connectSocket(b.url, { token: watcher.accessToken });
    const bystanderOnB = await connectSocket(b.url, { token: bystander.accessToken });
    sockets.push(onB, bystanderOnB);
    const gone = disconnected(onB);

    const reset = await post(
      `${a.url}/api/v1/admin/reset-password/${watcher.user._id}`,
      { newPassword: 'N3wPassword!' },
      { authorization: `Bearer ${accessToken}` },
    );
    expect(reset.status).toBe(200);
    // B's periodic check is an hour away: this is A's notice.
    expect(await gone).toBe('io server disconnect');
    expect(bystanderOnB.connected).toBe(true);
  });
});
