import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { adminDeviceResponse, authResponse } from '@vitalwatch/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from './helpers.ts';
import { type ClientSocket, connectSocket, recordEvents, serviceUrl } from './realtime-helpers.ts';
import { type ServerProcess, startServer, stop } from './server-process.ts';

const redisUrl = serviceUrl('TEST_REDIS_URL');

/** A TCP proxy in front of the real Redis that the test can cut, as a Redis outage would. */
async function cuttableProxy(target: URL) {
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    url: `redis://127.0.0.1:${address.port}`,
    /** Refuse new connections and drop the open ones. */
    cut: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of open) s.destroy();
      await closed;
    },
  };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as unknown };
}

describe.skipIf(!redisUrl)('when Redis goes away', () => {
  let server: ServerProcess;
  let proxy: Awaited<ReturnType<typeof cuttableProxy>>;
  let socket: ClientSocket | undefined;
  const admin = { username: unique('admin'), password: 'Adm1nPassw0rd' };

  beforeAll(async () => {
    proxy = await cuttableProxy(new URL(redisUrl!));
    server = await startServer({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'vw-redis-outage-')),
      REDIS_URL: proxy.url,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
    });
  }, 60_000);

  afterAll(async () => {
    socket?.close();
    await stop(server);
  });

  it('keeps ingesting, delivering to its own sockets and signing in, and does not crash', async () => {
    const login = async (user: { username: string; password: string }) =>
      post(`${server.url}/api/v1/user/login`, { user });
    const adminAuth = authResponse.parse((await login(admin)).json).data;
    const username = unique('watcher');
    const signup = await post(`${server.url}/api/v1/user/create`, {
      user: {
        fullName: 'Watcher',
        username,
        email: `${username}@example.com`,
        password: 'Passw0rd!',
        cnfPassword: 'Passw0rd!',
      },
    });
    const watcher = authResponse.parse(signup.json).data;
    const added = await post(
      `${server.url}/api/v1/admin/add-device`,
      { deviceName: 'Grandpa’s oximeter', isValid: true, users: [watcher.user._id] },
      { authorization: `Bearer ${adminAuth.accessToken}` },
    );
    const device = adminDeviceResponse.parse(added.json).data.device;
    socket = await connectSocket(server.url, { token: watcher.accessToken });
    const health = recordEvents(socket, 'healthDataUpdate');
    const alerts = recordEvents(socket, 'alertsUpdate');

    await proxy.cut();
    const ingest = (kind: 'health' | 'alert', body: object) =>
      post(`${server.url}/api/v1/ingest/${kind}`, body, { 'x-api-key': device.apiAuthCode });
    expect((await ingest('health', { heartRate: 72, spo2: 97 })).status).toBe(202);
    expect((await ingest('alert', { alertType: 'SOS' })).status).toBe(202);
    expect(await health.waitFor(1, 10_000)).toEqual([
      expect.objectContaining({ device: device._id, heartRate: 72 }),
    ]);
    expect(await alerts.waitFor(1, 10_000)).toEqual([
      [expect.objectContaining({ device: device._id, alertType: 'SOS' })],
    ]);

    // The broadcasts to other processes fail once ioredis gives up on its retries: give that time.
    await sleep(3000);
    expect(server.child.exitCode).toBeNull();
    expect((await ingest('health', { heartRate: 75 })).status).toBe(202);
    expect(await health.waitFor(2, 10_000)).toHaveLength(2);
    expect((await login({ username, password: 'Passw0rd!' })).status).toBe(200);
    // Still ready for traffic: Redis is reported, not required.
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { database: 'ok', redis: 'down' } });
    expect(server.child.exitCode).toBeNull();
  });
});
