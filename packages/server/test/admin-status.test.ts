import { writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SystemStatus } from '@vitalwatch/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import webpush from 'web-push';
import { type BuiltApp, buildApp } from '../src/app.ts';
import type { AppConfig } from '../src/config.ts';
import { createDatabase, type Database } from '../src/db/index.ts';
import { EventLoopMonitor } from '../src/system-status/event-loop-monitor.ts';
import { type PushDeliveryStatus, probeApi, probeNotifications } from '../src/system-status/probes.ts';
import { adminPost } from './admin-helpers.ts';
import { createAdmin, dbTargets, type TestUser, testConfig } from './helpers.ts';

const component = (status: SystemStatus, name: string) => status.components.find((c) => c.name === name);

/** A minimal SMTP peer: greets (or stays silent), answers EHLO and QUIT. */
async function startSmtpPeer(greet: boolean): Promise<{ port: number; server: Server }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (!greet) return;
    socket.write('220 localhost ESMTP test\r\n');
    socket.on('data', (chunk) => {
      for (const line of chunk.toString().split('\r\n').filter(Boolean)) {
        if (/^(EHLO|HELO)/i.test(line)) socket.write('250-localhost\r\n250 8BITMIME\r\n');
        else if (/^QUIT/i.test(line)) socket.end('221 Bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  server.on('close', () => {
    for (const s of sockets) s.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { port: address.port, server };
}

describe('EventLoopMonitor', () => {
  it('reports an event loop kept busy, and the API Service turns degraded', async () => {
    const monitor = new EventLoopMonitor({ resolutionMs: 10, windowMs: 60_000 });
    try {
      await sleep(50);
      expect(probeApi(monitor).status).toBe('operational');
      // Sustained load: the loop runs only between long synchronous stretches.
      for (let turn = 0; turn < 6; turn++) {
        const started = performance.now();
        while (performance.now() - started < 250) {
          // Busy: nothing else may run.
        }
        await sleep(1);
      }
      expect(monitor.lagMs()).toBeGreaterThanOrEqual(200);
      expect(probeApi(monitor)).toMatchObject({
        status: 'degraded',
        detail: expect.stringMatching(/delayed/),
      });
    } finally {
      monitor.stop();
    }
  });
});

describe.each(dbTargets())('admin system status on $name', (target) => {
  let shared: { database: Database; drop(): Promise<void> } | undefined;
  beforeAll(async () => {
    shared = await target.open();
  });
  afterAll(async () => {
    await shared?.database.close();
    await shared?.drop();
  });

  /** An app on the shared database with its own config (and optionally its own ping). */
  const useStatusApp = (overrides: () => Partial<AppConfig>, ping?: () => Database['ping']) => {
    let built: BuiltApp | undefined;
    let admin: TestUser | undefined;
    beforeAll(async () => {
      if (!shared) throw new Error('database not open');
      const database: Database = { ...shared.database, close: async () => {} };
      if (ping) database.ping = ping();
      built = await buildApp(testConfig(overrides()), { database });
      await built.app.ready();
      admin = await createAdmin(built);
    });
    afterAll(async () => {
      await built?.app.close();
    });
    return {
      built: () => built!,
      async status(): Promise<SystemStatus> {
        const res = await adminPost(built!, 'system-status', admin!.auth);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ success: true, message: expect.any(String) });
        return res.json().data;
      },
    };
  };

  describe('without push keys or SMTP (the defaults of a fresh install)', () => {
    const app = useStatusApp(() => ({}));

    it('checks the four components; push not configured makes the whole degraded', async () => {
      const status = await app.status();
      expect(status.components.map((c) => c.name)).toEqual([
        'Database',
        'API Service',
        'Notification Service',
        'Email Service',
      ]);
      expect(component(status, 'Database')?.status).toBe('operational');
      expect(component(status, 'API Service')?.status).toBe('operational');
      expect(component(status, 'Notification Service')).toEqual({
        name: 'Notification Service',
        status: 'degraded',
        detail: 'Push keys (VAPID) are not configured',
      });
      expect(component(status, 'Email Service')).toMatchObject({
        status: 'operational',
        detail: 'Mail is written to the outbox folder',
      });
      expect(status.overallStatus).toBe('degraded');
      const outbox = path.join(app.built().ctx.config.dataDir, 'outbox');
      expect((await readdir(outbox)).filter((f) => f.startsWith('.probe-'))).toEqual([]);
    });
  });

  describe('with push keys', () => {
    const app = useStatusApp(() => ({
      vapid: { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@vitalwatch.local' },
    }));
    /** The push sender's own figures, as the status page reads them. */
    const withPush = async (push: PushDeliveryStatus) => {
      const sender = app.built().ctx.push;
      const spies = [
        vi.spyOn(sender, 'configured').mockImplementation(push.configured),
        vi.spyOn(sender, 'recentFailureRate').mockImplementation(push.recentFailureRate),
      ];
      try {
        return await app.status();
      } finally {
        for (const spy of spies) spy.mockRestore();
      }
    };

    it('is operational throughout when push sends succeed', async () => {
      const status = await withPush({ configured: () => true, recentFailureRate: () => 0 });
      expect(status.components.map((c) => c.status)).toEqual([
        'operational',
        'operational',
        'operational',
        'operational',
      ]);
      expect(status.overallStatus).toBe('operational');
      expect((await withPush({ configured: () => true, recentFailureRate: () => null })).overallStatus).toBe(
        'operational',
      );
    });

    it('turns degraded when recent push sends fail, or when push delivery is not running', async () => {
      const failing = await withPush({ configured: () => true, recentFailureRate: () => 0.5 });
      expect(component(failing, 'Notification Service')).toMatchObject({
        status: 'degraded',
        detail: '50% of recent push sends failed',
      });
      expect(failing.overallStatus).toBe('degraded');
      expect({ name: 'Notification Service', ...probeNotifications(true, undefined) }).toMatchObject({
        status: 'degraded',
        detail: 'Push delivery is not running on this server',
      });
    });
  });

  describe('with SMTP_URL on a closed port', () => {
    const app = useStatusApp(() => ({ smtpUrl: 'smtp://127.0.0.1:1' }));

    it('reports the Email Service degraded', async () => {
      const status = await app.status();
      expect(component(status, 'Email Service')).toMatchObject({
        status: 'degraded',
        detail: expect.stringMatching(/SMTP server is unreachable \(ECONNREFUSED\)/),
      });
      expect(status.overallStatus).toBe('degraded');
    });
  });

  describe('with SMTP_URL on a live SMTP server', () => {
    let peer: { port: number; server: Server } | undefined;
    beforeAll(async () => {
      peer = await startSmtpPeer(true);
    });
    afterAll(() => peer?.server.close());
    const app = useStatusApp(() => ({ smtpUrl: `smtp://127.0.0.1:${peer!.port}` }));

    it('reports the Email Service operational', async () => {
      expect(component(await app.status(), 'Email Service')).toMatchObject({
        status: 'operational',
        detail: 'SMTP server accepted a connection',
      });
    });
  });

  describe('with an SMTP server that never greets', () => {
    let peer: { port: number; server: Server } | undefined;
    beforeAll(async () => {
      peer = await startSmtpPeer(false);
    });
    afterAll(() => peer?.server.close());
    const app = useStatusApp(() => ({ smtpUrl: `smtp://127.0.0.1:${peer!.port}` }));

    it('gives up within the time-out and reports degraded', async () => {
      const started = Date.now();
      const status = await app.status();
      expect(Date.now() - started).toBeLessThan(4000);
      expect(component(status, 'Email Service')?.status).toBe('degraded');
    });
  });

  describe('with an outbox that cannot be written', () => {
    const app = useStatusApp(() => {
      const config = testConfig();
      writeFileSync(path.join(config.dataDir, 'outbox'), 'a file where the folder should be');
      return { dataDir: config.dataDir };
    });

    it('reports the Email Service degraded', async () => {
      expect(component(await app.status(), 'Email Service')).toMatchObject({
        status: 'degraded',
        detail: expect.stringMatching(/^The outbox folder is not writable/),
      });
    });
  });

  describe('when the database server is unreachable', () => {
    let unreachable: Database | undefined;
    beforeAll(async () => {
      // A PostgreSQL pool pointed at a port where nothing listens.
      unreachable = await createDatabase({
        databaseUrl: 'postgres://postgres@127.0.0.1:1/none',
        pgliteDir: 'memory',
        poolSize: 1,
      });
    });
    afterAll(() => unreachable?.close());
    const app = useStatusApp(
      () => ({}),
      () => () => unreachable!.ping(),
    );

    it('reports the Database outage and the whole platform in outage', async () => {
      const status = await app.status();
      expect(component(status, 'Database')).toMatchObject({
        status: 'outage',
        detail: expect.stringMatching(/^The database did not answer a query/),
      });
      expect(status.overallStatus).toBe('outage');
    });
  });

  describe('when the database does not answer in time', () => {
    const app = useStatusApp(
      () => ({}),
      () => () => new Promise<void>(() => {}),
    );

    it('stops waiting after 2 s and reports an outage', async () => {
      const started = Date.now();
      const status = await app.status();
      expect(Date.now() - started).toBeLessThan(4000);
      expect(component(status, 'Database')).toEqual({
        name: 'Database',
        status: 'outage',
        detail: 'No answer within 2000 ms',
      });
      expect(status.overallStatus).toBe('outage');
    });
  });
});
