import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverArgs, serverEnv } from '../scripts/server-command.mjs';
import { ADMIN } from './fixtures.ts';

const root = path.resolve(import.meta.dirname, '..');

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/**
 * A VitalWatch server of one test's own (the shared e2e server must stay up for the others), on
 * its own port and DATA_DIR, which the test can stop and start again: a real outage, for the
 * socket and for HTTP alike, and a real recovery on the same data (users, tokens, alerts).
 */
export class ServerProcess {
  private child: ChildProcess | null = null;

  private constructor(
    readonly port: number,
    private readonly dataDir: string,
  ) {}

  /** On `port` when given (a test run's own range), else on any free one. */
  static async start(port?: number): Promise<ServerProcess> {
    const server = new ServerProcess(
      port ?? (await freePort()),
      mkdtempSync(path.join(tmpdir(), 'vw-e2e-outage-')),
    );
    try {
      await server.start();
    } catch (error) {
      await server.dispose();
      throw error;
    }
    return server;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts it (again, on the same data) and waits until it is ready. */
  async start(): Promise<void> {
    const child = spawn(process.execPath, serverArgs(), {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: serverEnv({
        ...process.env,
        PORT: String(this.port),
        DATA_DIR: this.dataDir,
        HOST: '127.0.0.1',
        MQTT_PORT: '0',
        LOG_LEVEL: 'warn',
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_EMAIL: 'admin@vitalwatch.test',
        ADMIN_PASSWORD: ADMIN.password,
        WEB_DIST: path.join(root, 'packages/web/dist'),
        NODE_ENV: 'test',
        SIGNUPS_PER_ADDRESS_PER_HOUR: '100000',
      }),
    });
    this.child = child;
    const deadline = Date.now() + 150_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      const ready = await fetch(`${this.origin}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    await this.stop();
    throw new Error('server did not become ready in 150 s');
  }

  /** Stops it (SIGTERM, as a restart or deploy would) and waits until the process is gone. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }

  /** Stops it and removes its data. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
