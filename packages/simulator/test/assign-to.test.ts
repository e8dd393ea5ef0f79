import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type UserDevice, userDevicesResponse } from '@vitalwatch/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const cli = path.join(root, 'packages/simulator/src/cli.ts');
const ADMIN_PASSWORD = 'Adm1nPassw0rd-sim';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/** The real server (`main.ts`) in its own process, with a fresh embedded database and a known admin. */
async function startServer(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'packages/server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: 'admin',
      ADMIN_EMAIL: 'admin@vitalwatch.test',
      ADMIN_PASSWORD,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    // Generous: a fresh embedded database runs every migration first, on a machine shared with others.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output}`));
    }, 150_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('VitalWatch is running at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  child.removeAllListeners('exit');
  return { url: `http://127.0.0.1:${port}`, child };
}

/** This environment less VW_ADMIN_PASSWORD: the password is what each run passes, or nothing. */
function withoutAdminPassword(): NodeJS.ProcessEnv {
  const { VW_ADMIN_PASSWORD: _, ...rest } = process.env;
  return rest;
}

/** `npm run simulate -- …args` as a user types it: its exit code and what it printed. */
const simulate = (args: string[], env: Record<string, string> = {}) =>
  new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', cli, ...args],
      { cwd: root, env: { ...withoutAdminPassword(), ...env }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, output: stdout + stderr }),
    );
  });

describe('npm run simulate -- --assign-to <username>', () => {
  let dataDir: string;
  let server: { url: string; child: ChildProcess };
  const username = `carer${Date.now().toString(36)}`;
  const password = 'Passw0rdOK';
  let saveFile: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'vw-sim-assign-'));
    saveFile = path.join(dataDir, 'simulated-devices.json');
    server = await startServer(path.join(dataDir, 'server'));
    const res = await fetch(`${server.url}/api/v1/user/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        user: {
          fullName: 'Sim Carer',
          username,
          email: `${username}@example.com`,
          password,
          cnfPassword: password,
        },
      }),
    });
    expect(res.status).toBe(201);
  }, 180_000);

  afterAll(async () => {
    if (server?.child.exitCode === null) {
      await new Promise<void>((resolve) => {
        server.child.once('exit', () => resolve());
        server.child.kill('SIGTERM');
      });
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The devices the user sees in My Devices. */
  async function devicesOf(): Promise<UserDevice[]> {
    const login = await fetch(`${server.url}/api/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: { username, password } }),
    });
    const { data } = (await login.json()) as { data: { accessToken: string } };
    const res = await fetch(`${server.url}/api/v1/device/get-device`, {
      method: 'POST',
      headers: { authorization: `Bearer ${data.accessToken}` },
    });
    return userDevicesResponse.parse(await res.json()).data.devices;
  }

  const base = () => ['--url', server.url, '--devices', '2', '--interval', '0.5', '--save', saveFile];

  it('creates the devices assigned to the user, says so, and their readings reach that user', async () => {
    const run = await simulate([
      ...base(),
      '--duration',
      '2',
      '--admin-password',
      ADMIN_PASSWORD,
      '--assign-to',
      username,
    ]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain(`assigned 2 devices to ${username} (2 newly)`);
    expect(run.output).toContain('they see them live in My Devices');
    const devices = await devicesOf();
    expect(devices.map((d) => d.deviceName).sort()).toEqual(['Simulated watch 1', 'Simulated watch 2']);
    for (const device of devices) expect(device.lastUpdate).not.toBeNull();
  }, 90_000);

  it('on a rerun reuses the saved devices, assigned once', async () => {
    const run = await simulate([
      ...base(),
      '--duration',
      '1',
      '--admin-password',
      ADMIN_PASSWORD,
      '--assign-to',
      username,
    ]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain(`assigned 2 devices to ${username} (0 newly)`);
    expect(await devicesOf()).toHaveLength(2);
  }, 90_000);

  it('refuses an unknown user, and assigning without the admin password', async () => {
    const unknown = await simulate([
      ...base(),
      '--admin-password',
      ADMIN_PASSWORD,
      '--assign-to',
      'nobody-here',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain('--assign-to nobody-here: no user of that name');
    const noPassword = await simulate([...base(), '--assign-to', username]);
    expect(noPassword.code).toBe(1);
    expect(noPassword.output).toContain('--assign-to needs --admin-password');
  }, 90_000);
});
