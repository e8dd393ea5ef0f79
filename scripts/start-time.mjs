// `npm run bench:start`: seconds from spawning the server (as `npm start` does) to its first 200 from /readyz.
// Each database is measured on a first start (empty: migrations, the generated admin) and on restarts.
// PostgreSQL is measured when DATABASE_URL is set (a database of its own: the first start migrates it).
// Beside the wall time, the CPU seconds the server used until ready (Linux /proc): on a busy machine that is the
// steadier figure, as the wall time then includes waiting for a core.
//   npm run bench:start -- [--runs N] [--cpu-prof DIR]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { serverArgs, serverEnv } from './server-command.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values: opts } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, 'cpu-prof': { type: 'string' } },
});
const runs = Number(opts.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number ≥ 1');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** CPU seconds (user + system) a process has used so far; 100 clock ticks a second on Linux. */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Wall and CPU seconds from spawn to /readyz 200; the server is stopped before it resolves. */
async function startToReady(env) {
  const port = await freePort();
  const profile = opts['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(opts['cpu-prof'])}`] : [];
  // The bundle is built (if the sources changed) before the clock starts: that is not the server's start.
  const args = serverArgs(profile);
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: serverEnv({
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
      LOG_LEVEL: 'warn',
    }),
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let result;
  while (result === undefined) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}:\n${stderr}`);
    if (performance.now() - started > 180_000) {
      child.kill('SIGKILL');
      throw new Error(`not ready within 180 s:\n${stderr}`);
    }
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) result = { wall: (performance.now() - started) / 1000, cpu: cpuSeconds(child.pid) };
    else await new Promise((r) => setTimeout(r, 10));
  }
  child.kill('SIGTERM');
  await exited;
  return result;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (s) => `${s.toFixed(2)} s`;
const figures = (xs) =>
  `median ${fmt(median(xs))} (min ${fmt(Math.min(...xs))}, max ${fmt(Math.max(...xs))})`;

async function measure(name, env) {
  const first = await startToReady(env);
  const restarts = [];
  for (let i = 0; i < runs; i++) restarts.push(await startToReady(env));
  console.log(`${name}, first start: ${fmt(first.wall)} wall, ${fmt(first.cpu)} CPU`);
  console.log(`${name}, restart (${runs} runs): ${figures(restarts.map((r) => r.wall))} wall`);
  console.log(`${' '.repeat(name.length + 20)}${figures(restarts.map((r) => r.cpu))} CPU`);
}

console.log(`start to ready on Node ${process.version} (${process.execPath})`);
const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-start-time-'));
try {
  await measure('PGlite', { DATA_DIR: path.join(dataDir, 'pglite'), DATABASE_URL: '' });
  if (process.env.DATABASE_URL) await measure('PostgreSQL', { DATA_DIR: path.join(dataDir, 'pg') });
  else console.log('PostgreSQL: not measured (set DATABASE_URL to a database of its own)');
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
