// Ingestion → Web Push latency: starts the real server (its own process, embedded database) and a
// local HTTPS push service that decrypts what it receives, subscribes one browser for a user
// assigned to a device, posts SOS alerts with the device key and times each one from the moment
// the request leaves until the push service has the encrypted message. Prints figures; never fails on time.
//
//   npm run bench:push -w @vitalwatch/server -- [--alerts 200] [--concurrency 1] [--database-url postgres://…]
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pushMessageSchema } from '@vitalwatch/shared';
import { z } from 'zod';
import { PushPeer, selfSignedCert } from '../test/push-peer.ts';

const { values } = parseArgs({
  options: {
    alerts: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '1' },
    'database-url': { type: 'string' },
  },
});
const alerts = z.coerce.number().int().min(1).max(100_000).parse(values.alerts);
const concurrency = z.coerce.number().int().min(1).max(100).parse(values.concurrency);

const ADMIN = { username: 'bench-admin', email: 'bench-admin@vitalwatch.test', password: 'Bench-Passw0rd' };
const serverMain = path.resolve(import.meta.dirname, '../src/main.ts');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The server as `npm start` runs it, trusting the local push service's certificate. */
function startServer(port: number, dataDir: string, caFile: string): ChildProcess {
  return spawn(process.execPath, [serverMain], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_EXTRA_CA_CERTS: caFile,
      // The local push service is on 127.0.0.1, which the push endpoint rules refuse but for tests.
      NODE_ENV: 'test',
      PUSH_TEST_ONLY_HOSTS: '127.0.0.1',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
      LOG_LEVEL: 'warn',
      INGEST_RATE_PER_DEVICE: '100000',
      // Every measured user signs up from 127.0.0.1.
      SIGNUPS_PER_ADDRESS_PER_HOUR: '100000',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...(values['database-url'] ? { DATABASE_URL: values['database-url'] } : {}),
    },
  });
}

const envelope = z.object({ data: z.unknown().optional() });

async function call(base: string, urlPath: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${urlPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json: unknown = await res.json();
  if (!res.ok) throw new Error(`${urlPath}: ${res.status} ${JSON.stringify(json)}`);
  return envelope.parse(json).data;
}

async function waitReady(base: string, server: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    const ok = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server not ready after 60 s');
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
const summary = (label: string, samples: number[]) => {
  const s = [...samples].sort((a, b) => a - b);
  const f = (v: number) => `${v.toFixed(1)} ms`;
  return `${label.padEnd(28)} p50 ${f(percentile(s, 50))}  p90 ${f(percentile(s, 90))}  p99 ${f(percentile(s, 99))}  max ${f(s.at(-1) ?? Number.NaN)}`;
};

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-push-bench-'));
  const identity = selfSignedCert();
  const caFile = path.join(dataDir, 'push-peer-ca.pem');
  writeFileSync(caFile, identity.cert);
  const peer = await PushPeer.start(identity);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServer(port, dataDir, caFile);
  try {
    await waitReady(base, server);
    const tokens = z.object({ accessToken: z.string() });
    const admin = tokens.parse(
      await call(base, '/api/v1/user/login', {
        user: { username: ADMIN.username, password: ADMIN.password },
      }),
    );
    const device = z
      .object({ device: z.object({ _id: z.string(), activationCode: z.string(), apiAuthCode: z.string() }) })
      .parse(
        await call(
          base,
          '/api/v1/admin/add-device',
          { deviceName: 'Bench band', isValid: true, users: [] },
          { authorization: `Bearer ${admin.accessToken}` },
        ),
      ).device;
    const password = 'Watch3r-Passw0rd';
    const user = tokens.parse(
      await call(base, '/api/v1/user/create', {
        user: {
          fullName: 'Bench Watcher',
          username: 'bench-watcher',
          email: 'watcher@vitalwatch.test',
          password,
          cnfPassword: password,
        },
      }),
    );
    const auth = { authorization: `Bearer ${user.accessToken}` };
    await call(base, '/api/v1/device/add-device', { data: { activationCode: device.activationCode } }, auth);
    const browser = peer.subscriber();
    await call(base, '/api/v1/user/save-fcm-token', { fcmToken: browser.toJSON() }, auth);

    const sentAt = new Map<string, number>();
    const waiting = new Map<string, () => void>();
    const delivered: number[] = [];
    peer.onDelivered = (request) => {
      const id = pushMessageSchema.parse(JSON.parse(browser.decrypt(request.body))).body;
      const started = sentAt.get(id);
      if (started === undefined) return;
      delivered.push(request.at - started);
      waiting.get(id)?.();
    };
    const answered: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < alerts) {
        const id = `latency probe ${next++}`;
        const arrived = new Promise<void>((resolve) => waiting.set(id, resolve));
        const started = performance.now();
        sentAt.set(id, started);
        await call(
          base,
          '/api/v1/ingest/alert',
          { alertType: 'SOS', alertMessage: id },
          { 'x-api-key': device.apiAuthCode },
        );
        answered.push(performance.now() - started);
        // A lost push would otherwise stall the run: after 10 s it counts as not delivered.
        await Promise.race([arrived, new Promise((r) => setTimeout(r, 10_000))]);
      }
    };
    const began = performance.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    const seconds = (performance.now() - began) / 1000;

    console.log(
      `\n${alerts} SOS alerts, ${concurrency} at a time, ${(alerts / seconds).toFixed(0)} alerts/s, database: ${values['database-url'] ? 'PostgreSQL' : 'embedded PGlite'}`,
    );
    console.log(summary('ingest answered (202)', answered));
    console.log(summary('push delivered (decrypted)', delivered));
    if (delivered.length < alerts) console.log(`NOT DELIVERED within 10 s: ${alerts - delivered.length}`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await peer.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
