// The server `npm run lighthouse` measures: the real server and built web app on a fresh embedded
// database, and a signed-up user whose device has sent two hours of readings (so /dashboard draws
// its cards and chart, as a carer would see it).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverArgs, serverEnv } from './server-command.mjs';
import { webDist } from './web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
const ADMIN = { username: 'admin', email: 'admin@vitalwatch.test', password: 'Adm1nPassw0rd' };

/** A TCP port nothing listens on now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(base, child) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the server was not ready within 120 s');
}

/** Starts the server; `stop()` ends it and removes its data directory. */
export async function startServer() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-lighthouse-'));
  const child = spawn(process.execPath, serverArgs(), {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: serverEnv({
      ...process.env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      MQTT_PORT: '0',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      WEB_DIST: webDist,
    }),
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilReady(base, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, stop };
}

async function call(base, pathname, { body, token, apiKey }, expected) {
  const res = await fetch(`${base}/api/v1${pathname}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(apiKey ? { 'X-Api-Key': apiKey } : {}),
    },
    body: JSON.stringify(body),
  });
  if (res.status !== expected) throw new Error(`POST ${pathname}: ${res.status} ${await res.text()}`);
  return res.json();
}

const login = async (base, username, password) =>
  (await call(base, '/user/login', { body: { user: { username, password } } }, 200)).data.accessToken;

/** A user with one device and two hours of readings, one a minute; returns the credentials. */
export async function seedCarer(base) {
  const user = {
    fullName: 'Lighthouse Carer',
    username: 'carer',
    email: 'carer@vitalwatch.test',
    password: 'Passw0rdOK',
  };
  await call(base, '/user/create', { body: { user: { ...user, cnfPassword: user.password } } }, 201);
  const admin = await login(base, ADMIN.username, ADMIN.password);
  const added = await call(
    base,
    '/admin/add-device',
    { body: { deviceName: 'Wristband', isValid: true, users: [] }, token: admin },
    201,
  );
  const { activationCode, apiAuthCode } = added.data.device;
  const carer = await login(base, user.username, user.password);
  await call(
    base,
    '/device/add-device',
    { body: { data: { activationCode, deviceName: "Grandma's wristband" } }, token: carer },
    200,
  );
  const now = Date.now();
  const readings = Array.from({ length: 120 }, (_, i) => ({
    recordedAt: new Date(now - (119 - i) * 60_000).toISOString(),
    heartRate: Math.round(72 + 6 * Math.sin(i / 10)),
    spo2: 97,
    temperature: 97.8,
    battery: 90 - Math.floor(i / 6),
  }));
  await call(base, '/ingest/health', { body: readings, apiKey: apiAuthCode }, 202);
  return user;
}
