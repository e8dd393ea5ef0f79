import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type AdminDevice, deviceTopic } from '@vitalwatch/shared';
import { connectAsync, type MqttClient } from 'mqtt';
import pg from 'pg';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestAlertIds } from './chaos-catch-up.ts';
import { startDbProxy } from './db-proxy.ts';
import { unique } from './helpers.ts';
import { addDevice, ingest, login, scratchDatabase, signupUser } from './process-api.ts';
import { type ClientSocket, freePort, serviceUrl } from './realtime-helpers.ts';
import { type ServerProcess, startServer, stop } from './server-process.ts';

/**
 * Chaos: three server processes behind HAProxy (HTTP with /readyz health checks, MQTT as TCP), on
 * one PostgreSQL and Redis. Devices send through the balancer, as in production, and resend what
 * was not acknowledged with the same messageId; then a process is killed (SIGKILL) under load, or
 * the database misbehaves: its sessions terminated, or, through a TCP proxy between the processes
 * and PostgreSQL, its connections reset, every packet dropped or every connection refused for a
 * while. Each scenario prints, and asserts: readings acknowledged, lost (acknowledged but not
 * stored: must be 0), duplicated (stored twice: must be 0), the longest any device waited for an
 * answer, and how long after the fault ended until every device was served again (a carer's
 * socket: until both alerts were shown, live or fetched on reconnecting as the web app does). `npm run chaos -w @vitalwatch/server` runs only this.
 */
const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((p) => existsSync(p));
const databaseUrl = serviceUrl('TEST_DATABASE_URL');
const redisUrl = serviceUrl('TEST_REDIS_URL');
if (process.env.CI === 'true' && !HAPROXY) throw new Error('CI=true but HAProxy is not installed');

const DEVICES = 12;
const LOAD_MS = 6_000;
const CHAOS_AT_MS = 2_000;
/** How long a database fault lasts. */
const FAULT_MS = 3_000;

interface Outcome {
  scenario: string;
  cases: number;
  acknowledged: number;
  lost: number;
  duplicated: number;
  /** The longest a device waited for any answer (an acknowledgement or a refusal). */
  longestWaitMs: number;
  recoveryMs: number;
}
const table: Outcome[] = [];

function haproxyConfig(
  httpPort: number,
  mqttPort: number,
  servers: { http: number; mqtt: number }[],
): string {
  const check = 'check inter 300ms fall 2 rise 2';
  return `global
  maxconn 4096
defaults
  timeout connect 1s
  timeout client 60s
  timeout server 60s
  timeout tunnel 60s
frontend web
  mode http
  bind 127.0.0.1:${httpPort}
  default_backend servers
backend servers
  mode http
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
${servers.map((s, i) => `  server web${i} 127.0.0.1:${s.http} ${check}`).join('\n')}
frontend devices
  mode tcp
  bind 127.0.0.1:${mqttPort}
  default_backend brokers
backend brokers
  mode tcp
  balance leastconn
  option httpchk GET /readyz
  http-check expect status 200
${servers.map((s, i) => `  server mqtt${i} 127.0.0.1:${s.mqtt} ${check} port ${s.http}`).join('\n')}
`;
}

describe.skipIf(!HAPROXY || !databaseUrl || !redisUrl)('chaos: three processes behind HAProxy', () => {
  const servers: ServerProcess[] = [];
  let haproxy: ChildProcess | undefined;
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let dbProxy: Awaited<ReturnType<typeof startDbProxy>>;
  let base: string;
  let mqttUrl: string;
  let watcher: Awaited<ReturnType<typeof signupUser>>;
  const devices: AdminDevice[] = [];
  const envs: Record<string, string>[] = [];
  const ports: { http: number; mqtt: number }[] = [];

  /** Start a killed process again on its ports; the balancer's health check takes it back. */
  async function restart(i: number): Promise<void> {
    servers[i] = await startServer(envs[i]!, ports[i]!.http);
  }

  beforeAll(async () => {
    database = await scratchDatabase(databaseUrl!);
    // The processes reach PostgreSQL through a proxy the database-fault scenarios control.
    dbProxy = await startDbProxy(new URL(database.url));
    const admin = { username: unique('admin'), password: 'Adm1nPassw0rd' };
    const env = {
      DATABASE_URL: dbProxy.url,
      REDIS_URL: redisUrl!,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      TRUST_PROXY: '127.0.0.1',
    };
    // One after the other: the first applies the migrations and creates the admin.
    for (let i = 0; i < 3; i++) {
      const mqtt = await freePort();
      const dataDir = mkdtempSync(path.join(tmpdir(), `vw-chaos-${i}-`));
      envs.push({ ...env, DATA_DIR: dataDir, MQTT_PORT: String(mqtt) });
      const server = await startServer(envs[i]!);
      servers.push(server);
      ports.push({ http: Number(new URL(server.url).port), mqtt });
    }
    const [httpPort, brokerPort] = [await freePort(), await freePort()];
    const config = path.join(mkdtempSync(path.join(tmpdir(), 'vw-haproxy-')), 'haproxy.cfg');
    writeFileSync(config, haproxyConfig(httpPort, brokerPort, ports));
    execFileSync(HAPROXY!, ['-c', '-q', '-f', config]);
    haproxy = spawn(HAPROXY!, ['-db', '-f', config], { stdio: 'ignore' });
    base = `http://127.0.0.1:${httpPort}`;
    mqttUrl = `mqtt://127.0.0.1:${brokerPort}`;
    await waitFor(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200);

    const { accessToken } = await login(base, admin);
    watcher = await signupUser(base);
    for (let i = 0; i < DEVICES; i++) devices.push(await addDevice(base, accessToken, watcher.user._id));
  }, 180_000);

  afterAll(async () => {
    haproxy?.kill('SIGTERM');
    await Promise.all(servers.map(stop));
    await dbProxy?.close();
    await database?.drop();
    if (table.length > 0) {
      console.log(`\nChaos suite (3 processes behind HAProxy, PostgreSQL, Redis; ${DEVICES} devices):`);
      console.table(table);
    }
  });

  /** Stored rows per messageId among `ids`. */
  async function storedCounts(ids: string[]): Promise<Map<string, number>> {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ message_id: string; n: number }>(
        'select message_id, count(*)::int as n from health_records where message_id = any($1) group by 1',
        [ids],
      );
      return new Map(rows.map((r) => [r.message_id, r.n]));
    } finally {
      await client.end();
    }
  }

  async function judge(
    scenario: string,
    sent: Map<string, boolean>,
    recoveryMs: number,
    longestWaitMs: number,
  ): Promise<Outcome> {
    const acked = [...sent].filter(([, ok]) => ok).map(([id]) => id);
    const counts = await storedCounts([...sent.keys()]);
    const outcome = {
      scenario,
      cases: sent.size,
      acknowledged: acked.length,
      lost: acked.filter((id) => !counts.has(id)).length,
      duplicated: [...counts.values()].filter((n) => n > 1).length,
      longestWaitMs: Math.round(longestWaitMs),
      recoveryMs: Math.round(recoveryMs),
    };
    table.push(outcome);
    return outcome;
  }

  /**
   * Every device posts batches of 5 readings through the balancer for `loadMs`, resending a batch
   * that got no 202 (same messageIds) as a device would; `chaos` runs at CHAOS_AT_MS and resolves
   * once the fault is over. Recovery: from then until every device had a batch acknowledged again.
   * A request that gets no answer within 30 s counts as a hang (its wait is what it waited).
   */
  async function httpLoad(chaos: () => Promise<void> | void, loadMs = LOAD_MS) {
    const sent = new Map<string, boolean>();
    const recovery = new Recovery();
    let longestWaitMs = 0;
    const started = Date.now();
    const loops = devices.map(async (device, d) => {
      let n = 0;
      while (Date.now() - started < loadMs) {
        const batch = Array.from({ length: 5 }, () => ({
          messageId: `${device._id.slice(0, 8)}-h${n++}`,
          heartRate: 70,
          spo2: 97,
        }));
        for (const r of batch) sent.set(r.messageId, false);
        for (let attempt = 0; attempt < 50; attempt++) {
          const asked = Date.now();
          const res = await ingest(base, device.apiAuthCode, 'health', batch, 30_000).catch(() => ({
            status: 0,
          }));
          longestWaitMs = Math.max(longestWaitMs, Date.now() - asked);
          if (res.status === 202) {
            for (const r of batch) sent.set(r.messageId, true);
            recovery.served(d);
            break;
          }
          await sleep(100);
        }
      }
    });
    await sleep(CHAOS_AT_MS);
    await chaos();
    recovery.chaosNow();
    await Promise.all(loops);
    return { sent, recoveryMs: recovery.ms(devices.length), longestWaitMs };
  }

  /**
   * Every device publishes a reading at a time over MQTT QoS 1 through the balancer for `loadMs`,
   * resending one with no PUBACK after 2 s (same messageId) until one comes; `chaos` as httpLoad.
   */
  async function mqttLoad(chaos: () => Promise<void> | void, loadMs = LOAD_MS) {
    const clients: MqttClient[] = await Promise.all(
      devices.map((d) =>
        connectAsync(mqttUrl, {
          username: d._id,
          password: d.apiAuthCode,
          reconnectPeriod: 200,
          connectTimeout: 2000,
          clean: true,
        }),
      ),
    );
    const sent = new Map<string, boolean>();
    const recovery = new Recovery();
    let longestWaitMs = 0;
    const started = Date.now();
    const loops = clients.map(async (client, d) => {
      const device = devices[d]!;
      let n = 0;
      while (Date.now() - started < loadMs) {
        const id = `${device._id.slice(0, 8)}-m${n++}`;
        sent.set(id, false);
        for (let attempt = 0; attempt < 30; attempt++) {
          const asked = Date.now();
          const acked = await Promise.race([
            client
              .publishAsync(
                deviceTopic(device._id, 'health'),
                JSON.stringify({ messageId: id, heartRate: 71 }),
                {
                  qos: 1,
                },
              )
              .then(
                () => true,
                () => false,
              ),
            sleep(2000).then(() => false),
          ]);
          longestWaitMs = Math.max(longestWaitMs, Date.now() - asked);
          if (acked) {
            sent.set(id, true);
            recovery.served(d);
            break;
          }
        }
      }
    });
    await sleep(CHAOS_AT_MS);
    await chaos();
    recovery.chaosNow();
    await Promise.all(loops);
    await Promise.all(clients.map((c) => c.endAsync(true)));
    return { sent, recoveryMs: recovery.ms(devices.length), longestWaitMs };
  }

  /** Judges a run and asserts it held; every process but the `killed` one must still be up. */
  async function expectHeld(
    scenario: string,
    run: Awaited<ReturnType<typeof httpLoad>>,
    recoveryBoundMs: number,
    killed?: number,
  ) {
    const outcome = await judge(scenario, run.sent, run.recoveryMs, run.longestWaitMs);
    expect(outcome.acknowledged).toBeGreaterThan(0);
    expect(outcome.lost).toBe(0);
    expect(outcome.duplicated).toBe(0);
    expect(outcome.recoveryMs).toBeLessThan(recoveryBoundMs);
    for (const [i, server] of servers.entries()) if (i !== killed) expect(server.child.exitCode).toBeNull();
    return outcome;
  }

  it('HTTP: SIGKILL of one process under load loses and duplicates nothing acknowledged', async () => {
    const run = await httpLoad(() => {
      servers[0]!.child.kill('SIGKILL');
    });
    // The balancer notices a dead process within 0.6 s; its requests in flight then fail and are resent.
    await expectHeld('HTTP ingest, 1 of 3 processes SIGKILLed', run, 10_000, 0);
    await restart(0);
  }, 60_000);

  it('MQTT: devices on a killed process reconnect through the balancer; nothing acknowledged is lost or doubled', async () => {
    const run = await mqttLoad(() => {
      servers[1]!.child.kill('SIGKILL');
    });
    await expectHeld('MQTT ingest, 1 of 3 processes SIGKILLed', run, 10_000, 1);
    await restart(1);
  }, 90_000);

  it('PostgreSQL: every session terminated under load; devices retry and nothing acknowledged is lost or doubled', async () => {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    const dbName = new URL(database.url).pathname.slice(1);
    const run = await httpLoad(async () => {
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [
        dbName,
      ]);
    });
    await admin.end();
    await expectHeld('HTTP ingest, every database session terminated', run, 5_000);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  }, 60_000);

  it('PostgreSQL: every connection reset on the network under load', async () => {
    const run = await httpLoad(() => dbProxy.reset());
    await expectHeld('HTTP ingest, database connections reset', run, 5_000);
  }, 60_000);

  /**
   * A fault of FAULT_MS on the way to the database: /readyz of a process says 503 within 2 s (the
   * balancer then stops sending to it), devices are answered (errors, not hangs) and resend, and
   * within 5 s of the database coming back every device is served again.
   */
  async function databaseOutage(scenario: string, load: typeof httpLoad, fault: () => void) {
    let readyz: { status: number; ms: number } | undefined;
    const run = await load(async () => {
      fault();
      const asked = Date.now();
      const res = await fetch(`${servers[2]!.url}/readyz`, { signal: AbortSignal.timeout(10_000) });
      readyz = { status: res.status, ms: Date.now() - asked };
      await sleep(Math.max(0, FAULT_MS - (Date.now() - asked)));
      dbProxy.reset();
      dbProxy.forward();
    }, LOAD_MS + FAULT_MS);
    expect(readyz?.status).toBe(503);
    expect(readyz?.ms).toBeLessThan(2_000);
    const outcome = await expectHeld(scenario, run, 5_000);
    // Nothing waited on the dead network for long: at most the fault itself and a retry's answer.
    expect(outcome.longestWaitMs).toBeLessThan(FAULT_MS + 2_500);
  }

  it('PostgreSQL: every packet dropped for 3 s under HTTP load', async () => {
    await databaseOutage('HTTP ingest, database packets dropped for 3 s', httpLoad, () =>
      dbProxy.blackhole(),
    );
  }, 60_000);

  it('PostgreSQL: every connection refused for 3 s under HTTP load', async () => {
    await databaseOutage('HTTP ingest, database refusing connections for 3 s', httpLoad, () =>
      dbProxy.refuse(),
    );
  }, 60_000);

  it('PostgreSQL: every packet dropped for 3 s under MQTT load: no PUBACK until stored', async () => {
    await databaseOutage('MQTT ingest, database packets dropped for 3 s', mqttLoad, () =>
      dbProxy.blackhole(),
    );
  }, 60_000);

  it('a carer socket on a killed process reconnects to another, catches up, and gets no alert twice', async () => {
    const alerts = await watchAlerts();
    const device = devices[0]!;
    const sos = (i: number) =>
      ingest(base, device.apiAuthCode, 'alert', { alertType: 'SOS', messageId: `sos-${i}` });
    const first = await sos(1);
    expect(first.status).toBe(202);
    await waitFor(() => alerts.seen.size >= 1);
    // Kill every process but one: whichever the socket was on, it ends on the survivor.
    const killedAt = Date.now();
    servers[0]!.child.kill('SIGKILL');
    servers[1]!.child.kill('SIGKILL');
    await waitFor(async () => (await sos(2).catch(() => ({ status: 0 }))).status === 202, 15_000);
    // Live, or fetched on reconnecting, as the web app does: the carer ends up with both.
    await waitFor(() => alerts.seen.size >= 2, 15_000).catch(() => {});
    const outcome = {
      scenario: `carer socket, 2 of 3 processes SIGKILLed (${alerts.reconnects} reconnect)`,
      cases: 2,
      acknowledged: 2,
      lost: 2 - alerts.seen.size,
      duplicated: alerts.live.length - new Set(alerts.live).size,
      longestWaitMs: Date.now() - killedAt,
      recoveryMs: Date.now() - killedAt,
    };
    table.push(outcome);
    expect(outcome.lost).toBe(0);
    expect(outcome.duplicated).toBe(0);
    alerts.close();
  }, 60_000);

  /**
   * A socket of the watcher through the balancer that reconnects and, like the web app, fetches
   * the latest alerts on every reconnect: `live` holds the ids pushed over the socket, `seen` every
   * id the carer has been shown.
   */
  async function watchAlerts() {
    const socket: ClientSocket = io(base, {
      auth: { token: watcher.accessToken },
      transports: ['websocket'],
      reconnectionDelay: 200,
      reconnectionDelayMax: 500,
      forceNew: true,
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const live: string[] = [];
    const seen = new Set<string>();
    const state = { reconnects: 0 };
    socket.on('alertsUpdate', (alerts) => {
      for (const a of alerts) {
        live.push(a._id);
        seen.add(a._id);
      }
    });
    socket.io.on('reconnect', () => {
      state.reconnects++;
      void latestAlertIds(base, watcher.accessToken).then((ids) => {
        for (const id of ids) seen.add(id);
      });
    });
    return {
      live,
      seen,
      get reconnects() {
        return state.reconnects;
      },
      close: () => socket.close(),
    };
  }
});

/** When each device was first served after the chaos: the slowest of them is the recovery time. */
class Recovery {
  private chaosAt = Number.POSITIVE_INFINITY;
  private readonly firstOk = new Map<number, number>();

  chaosNow(): void {
    this.chaosAt = Date.now();
  }

  served(device: number): void {
    const now = Date.now();
    if (now >= this.chaosAt && !this.firstOk.has(device)) this.firstOk.set(device, now);
  }

  /** Milliseconds from the chaos until every device had been served again (NaN: one never was). */
  ms(devices: number): number {
    if (this.firstOk.size < devices) return Number.NaN;
    return Math.max(...this.firstOk.values()) - this.chaosAt;
  }
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(100);
  }
}
