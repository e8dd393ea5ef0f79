import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type UserDevice, userDevicesResponse } from '@vitalwatch/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from '../src/bench/server.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const cli = path.join(root, 'packages/simulator/src/cli.ts');
const ADMIN_PASSWORD = 'Adm1nPassw0rd-sim';

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
      [cli, ...args],
      { cwd: root, env: { ...withoutAdminPassword(), ...env }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, output: stdout + stderr }),
    );
  });

describe('npm run simulate -- --assign-to <username>', () => {
  let dataDir: string;
  let server: ServerProcess;
  const username = `carer${Date.now().toString(36)}`;
  const password = 'Passw0rdOK';
  let saveFile: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'vw-sim-assign-'));
    saveFile = path.join(dataDir, 'simulated-devices.json');
    server = await startServer({
      DATA_DIR: path.join(dataDir, 'server'),
      ADMIN_USERNAME: 'admin',
      ADMIN_EMAIL: 'admin@vitalwatch.test',
      ADMIN_PASSWORD,
    });
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
    await server?.stop();
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
