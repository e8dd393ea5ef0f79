import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AdminDevice, adminDeviceResponse, authResponse } from '@vitalwatch/shared';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from './helpers.ts';
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

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as unknown };
}

async function signupUser(server: ServerProcess) {
  const username = unique('watcher');
  const password = 'Passw0rd!';
  const user = {
    fullName: 'Watcher',
    username,
    email: `${username}@example.com`,
    password,
    cnfPassword: password,
  };
  return authResponse.parse((await post(`${server.url}/api/v1/user/create`, { user })).json).data;
}

describe.skipIf(!databaseUrl || !redisUrl)('two server processes sharing PostgreSQL and Redis', () => {
  const dbName = `vw_cluster_${randomBytes(5).toString('hex')}`;
  const servers: ServerProcess[] = [];
  const sockets: ClientSocket[] = [];
  const admin = { username: unique('admin'), password: 'Adm1nPassw0rd' };

  beforeAll(async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`CREATE DATABASE ${dbName}`);
    await client.end();
    const scratch = new URL(databaseUrl!);
    scratch.pathname = `/${dbName}`;
    const env = {
      DATABASE_URL: scratch.toString(),
      REDIS_URL: redisUrl!,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
    };
    // One after the other: the first applies the migrations and creates the admin.
    servers.push(await startServer({ ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'vw-a-')) }));
    servers.push(await startServer({ ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'vw-b-')) }));
  }, 120_000);

  const adminLogin = async (server: ServerProcess) =>
    authResponse.parse((await post(`${server.url}/api/v1/user/login`, { user: admin })).json);

  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all(servers.map(stop));
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await client.end();
  });

  it('delivers a reading and an alert ingested on process A to a socket on process B, and only there', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    expect(a.child.pid).not.toBe(b.child.pid);
    const login = await adminLogin(a);
    const watcher = await signupUser(a);
    const bystander = await signupUser(b);
    const addDevice = async (userId: string): Promise<AdminDevice> => {
      const res = await post(
        `${a.url}/api/v1/admin/add-device`,
        { deviceName: 'Mum’s watch', isValid: true, users: [userId] },
        { authorization: `Bearer ${login.data.accessToken}` },
      );
      return adminDeviceResponse.parse(res.json).data.device;
    };
    const device = await addDevice(watcher.user._id);
    const bystanderDevice = await addDevice(bystander.user._id);

    const onB = await connectSocket(b.url, { token: watcher.accessToken });
    const bystanderOnB = await connectSocket(b.url, { token: bystander.accessToken });
    sockets.push(onB, bystanderOnB);
    const health = recordEvents(onB, 'healthDataUpdate');
    const alerts = recordEvents(onB, 'alertsUpdate');
    const bystanderHealth = recordEvents(bystanderOnB, 'healthDataUpdate');

    const ingest = (key: string, kind: 'health' | 'alert', body: object) =>
      post(`${a.url}/api/v1/ingest/${kind}`, body, { 'x-api-key': key });
    expect((await ingest(device.apiAuthCode, 'health', { heartRate: 66, spo2: 97 })).status).toBe(202);
    expect((await ingest(device.apiAuthCode, 'alert', { alertType: 'SOS' })).status).toBe(202);

    const [record] = await health.waitFor(1, 10_000);
    expect(record).toMatchObject({ device: device._id, heartRate: 66, spo2: 97 });
    const [batch] = await alerts.waitFor(1, 10_000);
    expect(batch).toEqual([expect.objectContaining({ device: device._id, alertType: 'SOS' })]);

    // Later news for the bystander, also ingested on A: it arrives, and nothing of the watcher's came first.
    expect((await ingest(bystanderDevice.apiAuthCode, 'health', { heartRate: 81 })).status).toBe(202);
    expect(await bystanderHealth.waitFor(1, 10_000)).toEqual([
      expect.objectContaining({ device: bystanderDevice._id, heartRate: 81 }),
    ]);
  });

  it('closes a user’s socket on process B as soon as an admin resets the password on process A', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const login = await adminLogin(a);
    const watcher = await signupUser(a);
    const bystander = await signupUser(a);
    const onB = await connectSocket(b.url, { token: watcher.accessToken });
    const bystanderOnB = await connectSocket(b.url, { token: bystander.accessToken });
    sockets.push(onB, bystanderOnB);
    const gone = disconnected(onB);

    const reset = await post(
      `${a.url}/api/v1/admin/reset-password/${watcher.user._id}`,
      { newPassword: 'N3wPassword!' },
      { authorization: `Bearer ${login.data.accessToken}` },
    );
    expect(reset.status).toBe(200);
    // B's own periodic check would close it too, but only every 30 s: waiting 10 s at most, this is A's notice.
    expect(await gone).toBe('io server disconnect');
    expect(bystanderOnB.connected).toBe(true);
  });
});
