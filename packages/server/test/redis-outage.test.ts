import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { unique } from './helpers.ts';
import { addDevice, ingest, login, scratchDatabase, signupUser } from './process-api.ts';
import { type ClientSocket, connectSocket, recordEvents, serviceUrl } from './realtime-helpers.ts';
import { type ServerProcess, startServer, stop, waitForOutput } from './server-process.ts';

const redisUrl = serviceUrl('TEST_REDIS_URL');
const databaseUrl = serviceUrl('TEST_DATABASE_URL');

/** A TCP proxy in front of the real Redis that the test can cut and restore, as an outage would. */
async function cuttableProxy(target: URL) {
  const open = new Set<Socket>();
  let server: Server | undefined;
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      const s = createServer((client) => {
        const upstream = connect(Number(target.port || 6379), target.hostname);
        for (const end of [client, upstream]) {
          open.add(end);
          end.on('close', () => open.delete(end));
          end.on('error', () => end.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server = s;
      s.listen(port, '127.0.0.1', () => {
        const address = s.address();
        resolve(address && typeof address === 'object' ? address.port : 0);
      });
    });
  const port = await listen(0);
  return {
    url: `redis://127.0.0.1:${port}`,
    /** Refuse new connections and drop the open ones. */
    async cut() {
      const closing = server;
      server = undefined;
      const closed = new Promise<void>((resolve) => (closing ? closing.close(() => resolve()) : resolve()));
      for (const s of open) s.destroy();
      await closed;
    },
    /** Accept connections again, on the same port. */
    restore: () => listen(port),
  };
}

const admin = { username: unique('admin'), password: 'Adm1nPassw0rd' };
const jwtSecret = randomBytes(32).toString('hex');
const serverEnv = (redis: string) => ({
  REDIS_URL: redis,
  JWT_SECRET: jwtSecret,
  ADMIN_USERNAME: admin.username,
  ADMIN_PASSWORD: admin.password,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'vw-redis-outage-')),
});

describe.skipIf(!redisUrl)('when Redis goes away', () => {
  const servers: ServerProcess[] = [];
  const sockets: ClientSocket[] = [];
  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all(servers.map(stop));
  });

  /** A new user's device on the server at `baseUrl`, and that user's socket recording its readings. */
  async function watchedDevice(baseUrl: string) {
    const { accessToken } = await login(baseUrl, admin);
    const watcher = await signupUser(baseUrl);
    const device = await addDevice(baseUrl, accessToken, watcher.user._id);
    const socket = await connectSocket(baseUrl, { token: watcher.accessToken });
    sockets.push(socket);
    return { watcher, device, socket, health: recordEvents(socket, 'healthDataUpdate') };
  }

  it('keeps ingesting, delivering to its own sockets and signing in, and does not crash', async () => {
    const proxy = await cuttableProxy(new URL(redisUrl!));
    const server = await startServer(serverEnv(proxy.url));
    servers.push(server);
    const { watcher, device, socket, health } = await watchedDevice(server.url);
    const alerts = recordEvents(socket, 'alertsUpdate');

    await proxy.cut();
    const send = (kind: 'health' | 'alert', body: object) =>
      ingest(server.url, device.apiAuthCode, kind, body);
    expect((await send('health', { heartRate: 72, spo2: 97 })).status).toBe(202);
    expect((await send('alert', { alertType: 'SOS' })).status).toBe(202);
    expect(await health.waitFor(1, 10_000)).toEqual([
      expect.objectContaining({ device: device._id, heartRate: 72 }),
    ]);
    expect(await alerts.waitFor(1, 10_000)).toEqual([
      [expect.objectContaining({ device: device._id, alertType: 'SOS' })],
    ]);

    // Publishing to the other processes has failed by now, and was reported rather than fatal.
    await waitForOutput(server, 'Redis unavailable');
    expect(server.child.exitCode).toBeNull();
    expect((await send('health', { heartRate: 75 })).status).toBe(202);
    expect(await health.waitFor(2, 10_000)).toHaveLength(2);
    expect((await login(server.url, watcher)).user.username).toBe(watcher.username);
    // Still ready for traffic: Redis is reported, not required.
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { database: 'ok', redis: 'down' } });
    expect(server.child.exitCode).toBeNull();
  });

  describe.skipIf(!databaseUrl)('with a second process sharing PostgreSQL', () => {
    let database: Awaited<ReturnType<typeof scratchDatabase>>;
    afterAll(async () => {
      await database?.drop();
    });

    it('a process started during the outage serves, then hears the others once Redis is back', async () => {
      database = await scratchDatabase(databaseUrl!);
      // B sees Redis all along (and creates the schema and the admin); A starts while it is away.
      const b = await startServer({ ...serverEnv(redisUrl!), DATABASE_URL: database.url });
      servers.push(b);
      const proxy = await cuttableProxy(new URL(redisUrl!));
      await proxy.cut();
      const a = await startServer({ ...serverEnv(proxy.url), DATABASE_URL: database.url });
      servers.push(a);
      // Its Redis clients have failed a few times over (ioredis gives up on a queued command after
      // its retries, which is when an unhandled subscription used to end the process).
      const failures = () => a.output().split('socket.io redis adapter').length - 1;
      while (failures() < 8 && a.child.exitCode === null) await sleep(50);

      const { device, health } = await watchedDevice(a.url);
      expect((await ingest(a.url, device.apiAuthCode, 'health', { heartRate: 61 })).status).toBe(202);
      expect(await health.waitFor(1, 10_000)).toEqual([expect.objectContaining({ heartRate: 61 })]);
      expect(a.child.exitCode).toBeNull();

      // Back: A subscribes as soon as it reconnects. Until then B's readings cannot reach A, so
      // B sends one every half second until one arrives.
      await proxy.restore();
      for (let beat = 0; health.received.length < 2; beat++) {
        if (beat > 60) throw new Error('no reading from B reached A after Redis came back');
        expect((await ingest(b.url, device.apiAuthCode, 'health', { heartRate: 90 })).status).toBe(202);
        await sleep(500);
      }
      expect(health.received.at(-1)).toMatchObject({ device: device._id, heartRate: 90 });
      expect(a.child.exitCode).toBeNull();
      await proxy.cut();
    }, 90_000);
  });
});
