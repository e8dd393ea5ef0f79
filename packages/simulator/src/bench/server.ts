import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/** CPU seconds (user + system) of processes, read from /proc (Linux). */
const TICKS_PER_SECOND = 100;

function cpuSecondsOf(pid: number | string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

function commandOf(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
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

/** Busy and total CPU seconds of the whole machine. */
function machineSeconds(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [, ...values] = line.trim().split(/\s+/);
  const n = values.map(Number);
  const idle = (n[3] ?? 0) + (n[4] ?? 0);
  const total = n.reduce((a, b) => a + b, 0);
  return { busy: (total - idle) / TICKS_PER_SECOND, total: total / TICKS_PER_SECOND };
}

export interface CpuSnapshot {
  at: number;
  server: number;
  /** CPU seconds of each PostgreSQL process (the postmaster, each backend) by pid. */
  postgres: Map<string, number>;
  bench: number;
  machine: { busy: number; total: number };
}

/** Where the CPU goes: the server process, PostgreSQL's processes, this load generator, the machine. */
export function cpuSnapshot(serverPid: number): CpuSnapshot {
  const postgres = new Map(
    readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d) && commandOf(d) === 'postgres')
      .map((pid) => [pid, cpuSecondsOf(pid)]),
  );
  const self = process.cpuUsage();
  return {
    at: Date.now(),
    server: cpuSecondsOf(serverPid),
    postgres,
    bench: (self.user + self.system) / 1e6,
    machine: machineSeconds(),
  };
}

/**
 * CPU seconds used between two snapshots, and the wall time they span. PostgreSQL's share is summed
 * per process: a backend that started in between counts from zero, and one that has exited by `b`
 * is left out (a sum over whichever processes exist would go down, even below zero, when one exits).
 */
export function cpuBetween(a: CpuSnapshot, b: CpuSnapshot) {
  const machineBusy = b.machine.busy - a.machine.busy;
  const server = b.server - a.server;
  let postgres = 0;
  for (const [pid, seconds] of b.postgres) postgres += Math.max(0, seconds - (a.postgres.get(pid) ?? 0));
  const bench = b.bench - a.bench;
  return {
    wall: (b.at - a.at) / 1000,
    server,
    postgres,
    bench,
    /** Everything else on the machine (other programs compete for the same two cores). */
    other: Math.max(0, machineBusy - server - postgres - bench),
  };
}
export type CpuUse = ReturnType<typeof cpuBetween>;

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
