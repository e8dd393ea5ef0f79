// `npm run bench`: throughput and latency of the real server on this machine. Not a test: it prints figures.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ServerApi } from './api.ts';
import { adminPhase } from './bench/admin.ts';
import { boardPhase } from './bench/board.ts';
import { boardBrowserPhase } from './bench/board-browser.ts';
import { type CpuSnapshot, type CpuUse, cpuBetween, cpuSnapshot } from './bench/cpu.ts';
import { exportPhase } from './bench/export.ts';
import { historyPhase } from './bench/history.ts';
import {
  connectDevices,
  httpSender,
  httpThroughput,
  MQTT_CLIENTS,
  mqttSender,
  mqttThroughput,
  type SendReading,
  socketLatency,
  type Window,
} from './bench/load.ts';
import { rawInsertRate } from './bench/raw-insert.ts';
import { type ReadsByDatabase, readsPhase, readTargets } from './bench/reads.ts';
import { fmt, log, type PhaseResult, percentile, report } from './bench/report.ts';
import {
  BENCH_DATABASE_URL,
  rssMb,
  type ServerProcess,
  scratchDatabase,
  startServer,
} from './bench/server.ts';
import { ensureDevices } from './devices.ts';

const HELP = `Usage: npm run bench -- [options]

  --devices N           simulated devices (default 200)
  --duration S          measured seconds per phase (default 10), after --warmup S (default 2)
  --window N            MQTT QoS 1 messages in flight per device (default 4)
  --mqtt-client NAME    the devices' MQTT client: lean (default: CONNECT, QoS 1 PUBLISH, PUBACK on
                        mqtt-packet, 9-11 µs of CPU a reading with its JSON) or mqtt.js (the full
                        client, 16-18 µs, taken from the same two cores the server runs on)
  --http-batch N        readings per HTTP post (default 100)
  --http-concurrency N  HTTP posts in flight (default 8)
  --latency-rate N      readings/s for the latency phases (default 1000)
  --databases LIST      postgres,pglite (default both)
  --phases LIST         raw,mqtt,http,latency,http-latency (default) and history: raw (PostgreSQL only)
                        multi-row inserts straight into the readings table, the ceiling the rest is
                        compared with; throughput over MQTT and HTTP; device→socket latency with
                        readings sent over MQTT or HTTP; history (PostgreSQL only) seeds
                        --history-readings and times the history call per range
  --history-readings N  readings stored for the history phase (default 10,000,000)
  --history-calls N     history calls timed per range (default 50)
  --export-days N       export (PostgreSQL only): days of 1 Hz readings seeded, then streamed as
                        CSV with the server's memory sampled (default 90: 7.8 M readings)
  --mqtt-url URL        use this external broker (the server subscribes to it, as with
                        MQTT_URL) instead of the embedded one; it must accept the devices
  --database-url URL    PostgreSQL server to create a scratch database on
                        (default $TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres)
  --cpu-prof DIR        run the server with node --cpu-prof, profiles written to DIR
  --phases reads        (on both databases) seeds --reads-readings straight into the database,
                        restarts the server on it (start to ready), then req/s, p50 and p99 with
                        --connections keep-alive connections (one user each) of GET /healthz and
                        each read a dashboard makes
  --phases admin        (PostgreSQL only) seeds 30,000 devices with readings and 10,000 users, then
                        p50 / p99 on 10 connections (each list after --warmup S of warm-up) and
                        bytes per page of the admin's paged lists
                        (GET /admin/devices, /admin/users, searches, filters, the fleet summary);
                        then Device Management in Chromium (/usr/bin/chromium; the web app built
                        first, npm run build): first rows, rows in the DOM, search to result
  --phases board        (PostgreSQL only) seeds 1,000 devices for one user with --reads-readings
                        readings stored and a last hour each, then p50 / p99 on 20 connections
                        and the bytes (JSON, gzipped) of the board snapshot
  --phases board-browser  the board in Chromium (/usr/bin/chromium; the web app built first, npm
                        run build) with --devices devices (default 200) each sending a reading a
                        second over MQTT for 60 s: main-thread busy, long tasks, JS heap growth
  --reads-readings N    readings stored for the reads and board phases (default 10,000,000)
  --reads-alerts N      reads phase: alerts of each device over the year before (default
                        500: 100,000 on 200 devices; alerts are kept for ever)
  --connections N       connections of the reads phase (default 20)
  --reads A,B           reads phase: only the reads whose label contains one of these
                        (GET /healthz is always measured: the yardstick), e.g. --reads profile,history
  --server-main FILE    run this checkout's packages/server/src/main.ts instead (before / after)
  --compare-main FILE   reads: measure that checkout's server too, first, on the same seeded
                        database, back to back with this one (before / after)
`;

const options = z.object({
  devices: z.coerce.number().int().min(1).max(20_000),
  duration: z.coerce.number().positive().max(600),
  warmup: z.coerce.number().min(0).max(60),
  window: z.coerce.number().int().min(1).max(1000),
  mqttClient: z.enum(MQTT_CLIENTS),
  httpBatch: z.coerce.number().int().min(1).max(500),
  httpConcurrency: z.coerce.number().int().min(1).max(256),
  latencyRate: z.coerce.number().positive().max(100_000),
  databases: z
    .string()
    .transform((s) => s.split(',').map((d) => z.enum(['postgres', 'pglite']).parse(d.trim()))),
  phases: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((p) =>
          z
            .enum([
              'raw',
              'mqtt',
              'http',
              'latency',
              'http-latency',
              'history',
              'export',
              'reads',
              'admin',
              'board',
              'board-browser',
            ])
            .parse(p.trim()),
        ),
    ),
  databaseUrl: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
  mqttUrl: z
    .string()
    .regex(/^mqtts?:\/\//, 'must be an mqtt:// URL')
    .optional(),
  cpuProf: z.string().optional(),
  historyReadings: z.coerce.number().int().min(0).max(100_000_000),
  historyCalls: z.coerce.number().int().min(1).max(10_000),
  exportDays: z.coerce.number().int().min(1).max(90),
  readsReadings: z.coerce.number().int().min(0).max(100_000_000),
  readsAlerts: z.coerce.number().int().min(0).max(100_000),
  connections: z.coerce.number().int().min(1).max(256),
  reads: z
    .string()
    .transform((s) => s.split(',').map((r) => r.trim()))
    .optional(),
  serverMain: z.string().optional(),
  compareMain: z.string().optional(),
});
type Options = z.infer<typeof options>;

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '200' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      window: { type: 'string', default: '4' },
      'mqtt-client': { type: 'string', default: 'lean' },
      'http-batch': { type: 'string', default: '100' },
      'http-concurrency': { type: 'string', default: '8' },
      'latency-rate': { type: 'string', default: '1000' },
      databases: { type: 'string', default: 'postgres,pglite' },
      phases: { type: 'string', default: 'raw,mqtt,http,latency,http-latency' },
      'mqtt-url': { type: 'string' },
      'database-url': { type: 'string', default: BENCH_DATABASE_URL },
      'cpu-prof': { type: 'string' },
      'history-readings': { type: 'string', default: '10000000' },
      'history-calls': { type: 'string', default: '50' },
      'export-days': { type: 'string', default: '90' },
      'reads-readings': { type: 'string', default: '10000000' },
      'reads-alerts': { type: 'string', default: '500' },
      connections: { type: 'string', default: '20' },
      reads: { type: 'string' },
      'server-main': { type: 'string' },
      'compare-main': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  return options.parse({
    ...values,
    mqttClient: values['mqtt-client'],
    httpBatch: values['http-batch'],
    httpConcurrency: values['http-concurrency'],
    latencyRate: values['latency-rate'],
    databaseUrl: values['database-url'],
    mqttUrl: values['mqtt-url'],
    cpuProf: values['cpu-prof'],
    historyReadings: values['history-readings'],
    historyCalls: values['history-calls'],
    exportDays: values['export-days'],
    readsReadings: values['reads-readings'],
    readsAlerts: values['reads-alerts'],
    serverMain: values['server-main'],
    compareMain: values['compare-main'],
  });
}

/** Runs `body` while sampling the server: CPU between the measured window's edges, peak RSS. */
async function measured<T>(
  server: ServerProcess,
  body: (onStart: () => void, onEnd: () => void) => Promise<T>,
) {
  let start: CpuSnapshot | undefined;
  let ended: CpuSnapshot | undefined;
  let rss = 0;
  const sampler = setInterval(() => {
    rss = Math.max(rss, rssMb(server.pid));
  }, 250);
  const result = await body(
    () => {
      start = cpuSnapshot(server.pid);
    },
    () => {
      ended = cpuSnapshot(server.pid);
    },
  );
  const end = ended ?? cpuSnapshot(server.pid);
  clearInterval(sampler);
  // The measured window ended just before `body` finished draining; close enough for CPU shares.
  return { result, cpu: cpuBetween(start ?? end, end), rss: Math.round(Math.max(rss, rssMb(server.pid))) };
}

async function benchDatabase(
  database: 'postgres' | 'pglite',
  opts: Options,
  reads: ReadsByDatabase,
): Promise<PhaseResult[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-bench-'));
  const scratch = database === 'postgres' ? await scratchDatabase(opts.databaseUrl) : undefined;
  const admin = { username: 'benchadmin', password: `Bench-${randomBytes(6).toString('hex')}1a` };
  const flags = opts.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(opts.cpuProf)}`] : [];
  const store = scratch ? 'scratch PostgreSQL database' : 'embedded PGlite';
  const broker = opts.mqttUrl ? `external broker ${opts.mqttUrl}` : 'embedded broker';
  log(`\n${database}: starting the server (${store}, ${broker})…`);
  const serverMain = opts.serverMain ? path.resolve(opts.serverMain) : undefined;
  const start = (main = serverMain) =>
    startServer(
      {
        DATA_DIR: dataDir,
        DATABASE_URL: scratch?.url ?? '',
        ADMIN_USERNAME: admin.username,
        ADMIN_PASSWORD: admin.password,
        // The reads phase signs up two users a connection (a team member, a family member).
        SIGNUPS_PER_ADDRESS_PER_HOUR: '1000',
        ...(opts.mqttUrl ? { MQTT_URL: opts.mqttUrl } : {}),
      },
      flags,
      main,
    );
  let server = await start();
  const results: PhaseResult[] = [];
  try {
    const api = new ServerApi(server.url);
    const signUp = async (count: number, prefix: string) => {
      const signedUp = [];
      for (let i = 0; i < count; i++) {
        const username = `${prefix}${randomBytes(4).toString('hex')}`;
        const password = 'Watch3rPassword';
        signedUp.push({ ...(await api.signup(username, password)), username, password });
      }
      return signedUp;
    };
    const watchers = await signUp(opts.phases.includes('reads') ? opts.connections : 1, 'watcher');
    // The reads phase's family members: given their few devices when it seeds.
    const families = opts.phases.includes('reads') ? await signUp(opts.connections, 'family') : [];
    const watcher = watchers[0]!;
    const devices = await ensureDevices({
      api,
      count: opts.devices,
      known: [],
      admin: async () => (await api.login(admin.username, admin.password)).accessToken,
      users: watchers.map((w) => w.userId),
      namePrefix: 'Bench watch',
    });
    const clients = await connectDevices(server.mqttUrl, devices, opts.mqttClient);
    const window: Window = { warmupMs: opts.warmup * 1000, durationMs: opts.duration * 1000 };
    const push = (
      phase: string,
      figure: string,
      value: number,
      readings: number,
      m: { cpu: CpuUse; rss: number },
    ) => {
      results.push({ database, phase, figure, value, readings, cpu: m.cpu, rss: m.rss });
      log(`  ${phase}: ${figure}`);
    };

    const run = (phase: Options['phases'][number]) => opts.phases.includes(phase);
    if (run('raw') && scratch) {
      log('  raw insert: multi-row inserts straight into the readings table…');
      const raw = await measured(server, (onStart, onEnd) =>
        rawInsertRate(
          scratch.url,
          devices.map((d) => d._id),
          window,
          onStart,
          onEnd,
        ),
      );
      push('raw insert', `${fmt(raw.result.perSecond)} rows/s`, raw.result.perSecond, raw.result.count, raw);
    }
    if (run('mqtt')) {
      log(`  MQTT: ${devices.length} devices × ${opts.window} QoS 1 messages in flight…`);
      const mqtt = await measured(server, (onStart) =>
        mqttThroughput(clients, devices, opts.window, window, onStart),
      );
      const mqttFigure = `${fmt(mqtt.result.perSecond)} readings/s (errors ${mqtt.result.errors})`;
      // An external broker acknowledges on receipt, before the server stores anything: that
      // figure is the broker's, and a backlog it leaves behind delays the phases after it.
      const phase = opts.mqttUrl ? 'MQTT acks by the external broker' : 'MQTT throughput';
      push(phase, mqttFigure, mqtt.result.perSecond, mqtt.result.count, mqtt);
    }
    if (run('http')) {
      log(`  HTTP: ${opts.httpConcurrency} posts of ${opts.httpBatch} readings in flight…`);
      const http = await measured(server, (onStart) =>
        httpThroughput(api, devices, opts.httpBatch, opts.httpConcurrency, window, onStart),
      );
      const httpFigure = `${fmt(http.result.perSecond)} readings/s (errors ${http.result.errors})`;
      push('HTTP throughput', httpFigure, http.result.perSecond, http.result.count, http);
    }
    const latencyPhase = async (phase: string, send: SendReading) => {
      const latency = await measured(server, (onStart) =>
        socketLatency({
          url: server.url,
          accessToken: watcher.accessToken,
          devices,
          send,
          rate: opts.latencyRate,
          window,
          onStart,
        }),
      );
      const { latencies, sent, received } = latency.result;
      const sorted = [...latencies].sort((x, y) => x - y);
      const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(sorted, p));
      const figure = `p50 ${p50} ms, p95 ${p95} ms, p99 ${p99} ms, max ${sorted.at(-1)} ms (sent ${fmt(sent)}, on socket ${fmt(received)}, errors ${latency.result.meter.errors})`;
      push(phase, figure, p99 ?? Number.NaN, latency.result.meter.count, latency);
    };
    if (run('latency')) {
      log(`  latency: ${opts.latencyRate} readings/s over MQTT to a socket…`);
      await latencyPhase(`latency at ${opts.latencyRate}/s`, mqttSender(clients, devices));
    }
    if (run('http-latency')) {
      log(`  HTTP latency: ${opts.latencyRate} single-reading posts/s to a socket…`);
      await latencyPhase(`HTTP latency at ${opts.latencyRate}/s`, httpSender(api, devices));
    }
    if (run('board-browser'))
      await boardBrowserPhase({
        serverUrl: server.url,
        user: watcher,
        devices,
        clients,
      });
    await Promise.all(clients.map((c) => c.end()));
    if (run('history')) {
      if (!scratch)
        log('  history: PostgreSQL only (the embedded database cannot be seeded from outside); skipped');
      else
        await historyPhase({
          serverUrl: server.url,
          databaseUrl: scratch.url,
          accessToken: watcher.accessToken,
          denseDeviceId: devices[0]!._id,
          fleetDeviceIds: devices.slice(1).map((d) => d._id),
          readings: opts.historyReadings,
          calls: opts.historyCalls,
        });
    }
    if (run('export')) {
      if (!scratch) log('  export: PostgreSQL only (seeded from outside); skipped');
      else
        await exportPhase({
          serverUrl: server.url,
          serverPid: server.pid,
          databaseUrl: scratch.url,
          accessToken: watcher.accessToken,
          deviceId: devices.at(-1)!._id,
          days: opts.exportDays,
        });
    }
    if (run('admin')) {
      if (!scratch) log('  admin: PostgreSQL only (seeded from outside); skipped');
      else
        await adminPhase({
          serverUrl: server.url,
          databaseUrl: scratch.url,
          adminToken: (await api.login(admin.username, admin.password)).accessToken,
          admin,
          devices: 30_000,
          users: 10_000,
          connections: 10,
          requests: 1_000,
          warmupMs: opts.warmup * 1000,
        });
    }
    if (run('board')) {
      if (!scratch) log('  board: PostgreSQL only (seeded from outside); skipped');
      else
        await boardPhase({
          serverUrl: server.url,
          databaseUrl: scratch.url,
          adminToken: (await api.login(admin.username, admin.password)).accessToken,
          devices: 1_000,
          stored: opts.readsReadings,
          connections: 20,
          requests: 500,
        });
    }
    if (run('reads')) {
      const measuredReads = await readsPhase({
        database,
        databaseUrl: scratch?.url,
        pgliteDir: path.join(dataDir, 'pglite'),
        devices,
        readings: opts.readsReadings,
        alertsPerDevice: opts.readsAlerts,
        users: watchers,
        families,
        only: opts.reads,
        window,
        stopServer: () => server.stop(),
        servers: [
          ...(opts.compareMain ? [{ label: 'before', main: path.resolve(opts.compareMain) }] : []),
          { label: opts.compareMain ? 'after' : 'this checkout', main: serverMain },
        ].map(({ label, main }) => ({
          label,
          start: async () => {
            server = await start(main);
            return server;
          },
        })),
      });
      reads.set(database, measuredReads);
    }
  } finally {
    await server.stop();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}

async function main() {
  const opts = readOptions();
  const results: PhaseResult[] = [];
  const reads: ReadsByDatabase = new Map();
  for (const database of opts.databases) results.push(...(await benchDatabase(database, opts, reads)));
  if (results.length > 0) report(results, opts);
  if (reads.size > 0) readTargets(reads);
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
