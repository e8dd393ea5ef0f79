// `npm run bench:ladder`: how long a carer's read waits while an alarm storm's fallback ladders
// climb. High-priority alerts no browser reported shown start one ladder per alert and primary
// contact, due 60 s later (the default wait); the server then tries each person's next channel.
// Not a test: it prints figures. `--server-main` measures another checkout the same way.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ServerApi } from './api.ts';
import { percentile } from './bench/report.ts';
import { BENCH_DATABASE_URL, scratchDatabase, startServer } from './bench/server.ts';

const HELP = `Usage: npm run bench:ladder -- [options]

  --postgres           a scratch PostgreSQL database on --database-url (default $TEST_DATABASE_URL
                       or postgres://postgres@127.0.0.1:5432/postgres) instead of the embedded PGlite
  --carers N           primary contacts of the device (default 20)
  --alerts N           high-priority alerts raised at once (default 200): carers × alerts ladders
  --server-main PATH   another checkout's packages/server/src/main.ts (to measure before / after)
`;

/** The ladders fall due one wait (60 s by default) after the alerts; probe from a little before to well after. */
const PROBE_FROM_S = 50;
const PROBE_UNTIL_S = 95;
const PROBE_EVERY_MS = 50;

async function main() {
  const { values } = parseArgs({
    options: {
      'database-url': { type: 'string', default: BENCH_DATABASE_URL },
      postgres: { type: 'boolean', default: false },
      carers: { type: 'string', default: '20' },
      alerts: { type: 'string', default: '200' },
      'server-main': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const carers = z.coerce.number().int().min(1).max(200).parse(values.carers);
  const alerts = z.coerce.number().int().min(1).max(1000).parse(values.alerts);
  const scratch = values.postgres ? await scratchDatabase(values['database-url'], 'vw_ladder') : undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-ladder-'));
  const admin = { username: 'benchadmin', password: `Bench-${randomBytes(6).toString('hex')}1a` };
  const serverMain = values['server-main'] ? path.resolve(values['server-main']) : undefined;
  const say = (line: string) => process.stderr.write(`${line}\n`);
  say(`starting the server (${serverMain ?? 'this checkout'}, ${scratch ? 'PostgreSQL' : 'PGlite'})…`);
  const server = await startServer(
    {
      DATA_DIR: dataDir,
      DATABASE_URL: scratch?.url ?? '',
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      SIGNUPS_PER_ADDRESS_PER_HOUR: '1000',
    },
    [],
    serverMain,
  );
  try {
    const api = new ServerApi(server.url);
    const adminToken = (await api.login(admin.username, admin.password)).accessToken;
    const people = [];
    for (let i = 0; i < carers; i++) {
      people.push(await api.signup(`carer${randomBytes(4).toString('hex')}`, 'Carer-Passw0rd'));
    }
    const device = await api.addDevice(
      adminToken,
      'Ladder bench watch',
      people.map((p) => p.userId),
    );
    await api.ingest(
      device.apiAuthCode,
      'alert',
      Array.from({ length: alerts }, (_, i) => ({
        alertType: i % 2 ? 'SOS' : 'FALL',
        messageId: `ladder-${i}`,
      })),
    );
    const raisedAt = performance.now();
    say(`${alerts} alerts for ${carers} carers raised: ${alerts * carers} ladders fall due in 60 s`);
    const sinceS = () => (performance.now() - raisedAt) / 1000;
    await new Promise((r) => setTimeout(r, PROBE_FROM_S * 1000));
    const probes: { atS: number; ms: number }[] = [];
    const token = people[0]!.accessToken;
    let printed = PROBE_FROM_S;
    while (sinceS() < PROBE_UNTIL_S) {
      const atS = sinceS();
      const started = performance.now();
      const res = await fetch(`${server.url}/api/v1/user/profile`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(60_000),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`profile read: ${res.status}`);
      probes.push({ atS, ms: performance.now() - started });
      if (atS - printed >= 10) {
        printed = Math.floor(atS);
        say(
          `  ${printed} s after the alerts: ${probes.length} reads so far, slowest ${Math.max(...probes.map((p) => p.ms)).toFixed(0)} ms`,
        );
      }
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
    }
    const times = probes.map((p) => p.ms).sort((a, b) => a - b);
    const slowest = probes.reduce((a, b) => (a.ms >= b.ms ? a : b));
    process.stdout.write(
      `${scratch ? 'PostgreSQL' : 'PGlite'}, ${alerts} alerts × ${carers} carers: one carer's profile read every ${PROBE_EVERY_MS} ms from ${PROBE_FROM_S} s to ${PROBE_UNTIL_S} s after the alerts\n` +
        `  reads ${times.length}, p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms, ` +
        `slowest ${slowest.ms.toFixed(0)} ms (sent ${slowest.atS.toFixed(1)} s after the alerts), over 100 ms: ${times.filter((t) => t > 100).length}\n`,
    );
  } finally {
    await server.stop();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:ladder: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
