import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { z } from 'zod';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const mainTs = fileURLToPath(new URL('../../../server/src/main.ts', import.meta.url));

export interface ServerProcess {
  url: string;
  mqttUrl: string;
  pid: number;
  /** Milliseconds from spawning the process to its "running" line: start to ready. */
  readyMs: number;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(address && typeof address === 'object' ? address.port : 0));
    });
  });
}

/**
 * Node runs this checkout's TypeScript as it is (type stripping); a checkout from before that ran it with tsx,
 * which its own node_modules then has.
 */
function typeScriptLoader(checkout: string): string[] {
  return checkout !== repoRoot && existsSync(path.join(checkout, 'node_modules/tsx'))
    ? ['--import', 'tsx']
    : [];
}

/**
 * How `npm start` of `checkout` runs its server: its own `scripts/server-command.mjs` (V8 flags, the
 * bundled server), or, for a checkout from before that script, its V8 flags and main.ts.
 */
async function serverCommand(checkout: string, serverMain: string, nodeFlags: string[]): Promise<string[]> {
  const script = path.join(checkout, 'scripts/server-command.mjs');
  if (existsSync(script)) {
    const { serverArgs } = (await import(pathToFileURL(script).href)) as {
      serverArgs: (extraFlags: string[]) => string[];
    };
    return serverArgs(nodeFlags);
  }
  return [...serverNodeFlags(checkout), ...nodeFlags, ...typeScriptLoader(checkout), serverMain];
}

/** Above the bench's largest `--devices` (20,000): each device holds one MQTT connection. */
const BENCH_CONNECTIONS_PER_ADDRESS = 25_000;

/** The V8 flags `npm start` gives the server of `checkout` (none before it had any). */
function serverNodeFlags(checkout: string): string[] {
  const file = path.join(checkout, 'packages/server/node-flags.json');
  if (!existsSync(file)) return [];
  return z.array(z.string()).parse(JSON.parse(readFileSync(file, 'utf8')));
}

/**
 * The real `main.ts` (what `npm start` runs, with its V8 flags) in its own process, on 127.0.0.1, with Redis off
 * and the embedded MQTT broker on a free port, unless `env.MQTT_URL` names an external broker. `nodeFlags` e.g. ['--cpu-prof'] for profiling.
 */
export async function startServer(
  env: Record<string, string>,
  nodeFlags: string[] = [],
  /** Another checkout's `packages/server/src/main.ts`, to measure it the same way (before / after). */
  serverMain: string = mainTs,
): Promise<ServerProcess> {
  const [port, mqttPort] = [await freePort(), await freePort()];
  const checkout = serverMain === mainTs ? repoRoot : path.resolve(path.dirname(serverMain), '../../..');
  const args = await serverCommand(checkout, serverMain, nodeFlags);
  const spawnedAt = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: checkout,
    env: {
      ...process.env,
      REDIS_URL: '',
      MQTT_URL: '',
      // Every simulated device connects from 127.0.0.1: lift the per-address cap (1000) past the
      // bench's 20,000 devices.
      MQTT_CONNECTIONS_PER_ADDRESS: String(BENCH_CONNECTIONS_PER_ADDRESS),
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    // Generous: on two cores shared with other work, a cold start (TypeScript compiled) has taken over a minute.
    const timer = setTimeout(() => reject(new Error(`server did not start in 180 s:\n${output}`)), 180_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('VitalWatch is running at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with code ${code}:\n${output}`));
    });
  });
  const readyMs = performance.now() - spawnedAt;
  child.removeAllListeners('exit');
  // Keep reading its output so a chatty server never blocks on a full pipe; show errors.
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[server] ${chunk}`));
  return {
    url: `http://127.0.0.1:${port}`,
    mqttUrl: env.MQTT_URL || `mqtt://127.0.0.1:${mqttPort}`,
    pid: child.pid ?? 0,
    readyMs,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Resident memory of a process in MB. */
export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** The PostgreSQL server the benches make their scratch databases on, unless `--database-url` names another. */
export const BENCH_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh PostgreSQL database named `<prefix>_<random>` on the server of `url`; `drop` removes it (sessions and all). */
export async function scratchDatabase(url: string, prefix = 'vw_bench') {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  await run(`CREATE DATABASE ${name}`);
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return { url: scratch.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
