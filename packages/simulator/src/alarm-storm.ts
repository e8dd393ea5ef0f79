// `npm run bench:alarms`: how many alerts realistic vital streams raise on the real server (the
// storm figure of issue 11). Not a test: it prints figures. `--server-main` measures another
// checkout the same way, for a before / after comparison.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { BENCH_DATABASE_URL, scratchDatabase, startServer } from './bench/server.ts';

const HELP = `Usage: npm run bench:alarms -- [options]

  --database-url URL   PostgreSQL server for a scratch database (default $TEST_DATABASE_URL or
                       postgres://postgres@127.0.0.1:5432/postgres); --pglite uses the embedded one
  --pglite             embedded PGlite instead of PostgreSQL
  --server-main PATH   another checkout's packages/server/src/main.ts (to measure before / after)
  --batch N            readings per HTTP post (default 1: a device sending each reading at once)
`;

const T_HOUR = 3600;

/** A seeded generator, so every run sends the same stream. */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Scenario {
  name: string;
  /** SpO2 values, one a second of device time, ending now. */
  spo2: number[];
  expect: string;
}

function scenarios(): Scenario[] {
  const rand = lcg(20261123);
  return [
    {
      name: 'SpO2 hovering 94–96 % for 1 h at 1 Hz',
      spo2: Array.from({ length: T_HOUR }, () => 94 + Math.floor(rand() * 3)),
      expect: 'at most 1',
    },
    {
      name: 'sustained desaturation: 2 min at 93 %',
      spo2: [...Array(60).fill(97), ...Array(120).fill(93), ...Array(60).fill(97)],
      expect: '1, 30 s after it began',
    },
    { name: 'one critical reading: 88 %', spo2: [97, 97, 88, 97], expect: '1 at once, high priority' },
  ];
}

/**
 * Calls parsed with only the fields this script reads, so an older server (a `--server-main`
 * checkout from before a schema grew) answers them too.
 */
function client(baseUrl: string) {
  const post = async <T extends z.ZodType>(
    path: string,
    schema: T,
    body: unknown,
    token?: string,
    key?: string,
  ) => {
    const res = await fetch(new URL(path, baseUrl), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(key ? { 'x-api-key': key } : {}),
      },
      body: JSON.stringify(body),
    });
    const json: unknown = await res.json();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return schema.parse(json) as z.output<T>;
  };
  const auth = z.object({ data: z.object({ accessToken: z.string(), user: z.object({ _id: z.string() }) }) });
  return {
    login: async (username: string, password: string) =>
      (await post('/api/v1/user/login', auth, { user: { username, password } })).data.accessToken,
    signup: async (username: string, password: string) => {
      const user = {
        fullName: 'Alarm Watcher',
        username,
        email: `${username}@example.com`,
        password,
        cnfPassword: password,
      };
      const { data } = await post('/api/v1/user/create', auth, { user });
      return { accessToken: data.accessToken, userId: data.user._id };
    },
    addDevice: async (token: string, deviceName: string, users: string[]) =>
      (
        await post(
          '/api/v1/admin/add-device',
          z.object({ data: z.object({ device: z.object({ _id: z.string(), apiAuthCode: z.string() }) }) }),
          { deviceName, isValid: true, users },
          token,
        )
      ).data.device,
    ingest: (apiKey: string, readings: object[]) =>
      post(
        '/api/v1/ingest/health',
        z.unknown(),
        readings.length === 1 ? readings[0] : readings,
        undefined,
        apiKey,
      ),
    alerts: (token: string, deviceId: string) =>
      post('/api/v1/alert/all', alertPage, { deviceId, limit: 500 }, token),
  };
}

const alertPage = z.object({
  data: z.object({
    total: z.number(),
    alerts: z.array(
      z.object({ createdAt: z.string(), alertType: z.string(), priority: z.string().optional() }),
    ),
  }),
});

async function main() {
  const { values } = parseArgs({
    options: {
      'database-url': { type: 'string', default: BENCH_DATABASE_URL },
      pglite: { type: 'boolean', default: false },
      'server-main': { type: 'string' },
      batch: { type: 'string', default: '1' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const batch = z.coerce.number().int().min(1).max(500).parse(values.batch);
  const scratch = values.pglite ? undefined : await scratchDatabase(values['database-url'], 'vw_alarms');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-alarms-'));
  const admin = { username: 'benchadmin', password: `Bench-${randomBytes(6).toString('hex')}1a` };
  const serverMain = values['server-main'] ? path.resolve(values['server-main']) : undefined;
  process.stderr.write(
    `starting the server (${serverMain ?? 'this checkout'}, ${scratch ? 'PostgreSQL' : 'PGlite'})…\n`,
  );
  const server = await startServer(
    {
      DATA_DIR: dataDir,
      DATABASE_URL: scratch?.url ?? '',
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      // One device sending an hour of 1 Hz readings as fast as it can: past the per-device limit.
      INGEST_RATE_PER_DEVICE: '100000',
    },
    [],
    serverMain,
  );
  const rows: string[][] = [];
  try {
    const api = client(server.url);
    const adminToken = await api.login(admin.username, admin.password);
    const watcher = await api.signup(`watcher${randomBytes(4).toString('hex')}`, 'Watch3rPassword');
    for (const s of scenarios()) {
      const device = await api.addDevice(adminToken, `Storm ${randomBytes(3).toString('hex')}`, [
        watcher.userId,
      ]);
      const end = Date.now() - 1000;
      const readings = s.spo2.map((spo2, i) => ({
        messageId: `r${i}`,
        recordedAt: new Date(end - (s.spo2.length - 1 - i) * 1000).toISOString(),
        spo2,
        heartRate: 72,
        temperature: 97.6,
        battery: 80,
      }));
      const started = performance.now();
      let shown = 0;
      for (let i = 0; i < readings.length; i += batch) {
        await api.ingest(device.apiAuthCode, readings.slice(i, i + batch));
        const sent = Math.min(i + batch, readings.length);
        if (sent - shown >= readings.length / 10 || sent === readings.length) {
          shown = sent;
          process.stderr.write(`  ${s.name}: ${sent}/${readings.length} readings sent\n`);
        }
      }
      const seconds = (performance.now() - started) / 1000;
      const page = await api.alerts(watcher.accessToken, device._id);
      const below = s.spo2.filter((v) => v < 95).length;
      const first = page.data.alerts.at(-1);
      const firstLow = readings.find((r) => r.spo2 < 95);
      const delay =
        first && firstLow
          ? `${((Date.parse(first.createdAt) - Date.parse(firstLow.recordedAt)) / 1000).toFixed(0)} s`
          : '–';
      rows.push([
        s.name,
        `${readings.length} (${below} below 95 %)`,
        String(page.data.total),
        first?.priority ?? '–',
        delay,
        s.expect,
        `${(readings.length / seconds).toFixed(0)}/s`,
      ]);
    }
  } finally {
    await server.stop();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const header = [
    'scenario',
    'readings',
    'alerts',
    'first priority',
    'first alert after',
    'expected',
    'sent at',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  process.stdout.write(
    [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n') +
      '\n',
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:alarms: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
