// `npm run bench:move -- --readings 10000000 --to postgres://postgres@127.0.0.1:5432/postgres`:
// fills an embedded database in a scratch directory with readings of ten devices at 1 Hz, moves it
// into a new database on that PostgreSQL server (dropped afterwards) and prints the time, the rate
// per million readings and the peak memory (RSS, PGlite's WebAssembly heap included).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { moveDatabase } from '../src/backup/move.ts';
import { createDatabase } from '../src/db/index.ts';
import { DEFAULT_RETENTION, TimePartitions } from '../src/db/partitions.ts';
import { endProgress, fail, mib, progress, seconds, TOOL_QUERY_TIMEOUT_MS } from './cli-env.ts';

const { values } = parseArgs({
  options: { readings: { type: 'string', default: '10000000' }, to: { type: 'string' } },
});
const readings = Number(values.readings);
if (!values.to || !Number.isInteger(readings) || readings < 1)
  fail('usage: npm run bench:move -- --readings N --to postgres://user@host:5432/postgres');
const DEVICES = 10;
const CHUNK = 250_000;

let peak = 0;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 100);

const dir = mkdtempSync(path.join(tmpdir(), 'vw-move-bench-'));
const name = `vw_move_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: values.to });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(values.to);
url.pathname = `/${name}`;
try {
  const source = await createDatabase({ databaseUrl: undefined, pgliteDir: path.join(dir, 'pglite') });
  await source.migrate();
  // The readings span now to now + readings / 10 s (10 M: 12 days): partitions as the server makes them.
  await new TimePartitions(source.db, DEFAULT_RETENTION).ensure(
    new Date(),
    new Date(Date.now() + (readings / DEVICES) * 1000 + 86_400_000),
  );
  await source.db.execute(sql`insert into devices (device_name, activation_code, api_auth_code)
    select 'bench ' || g, md5(random()::text), md5(random()::text) from generate_series(1, ${DEVICES}) g`);
  const filling = Date.now();
  for (let from = 0; from < readings; from += CHUNK) {
    const to = Math.min(readings, from + CHUNK);
    // Ten devices at 1 Hz from now on: inside the partitions made ahead (three weeks).
    await source.db.execute(sql`insert into health_records (recorded_at, device_seq, heart_rate, spo2, temperature, battery, message_id)
      select now() + make_interval(secs => g / ${DEVICES}::float8), (select min(seq) from devices) + g % ${DEVICES}::int,
             60 + g % 40, 90 + g % 10, 36 + (g % 20) / 10.0, 100 - g % 100, 'b' || g
      from generate_series(${from}::int, ${to - 1}::int) g`);
    progress(
      `filling the embedded database: ${to} of ${readings} readings, ${seconds(Date.now() - filling)}`,
    );
  }
  endProgress();
  const target = await createDatabase({
    databaseUrl: url.toString(),
    pgliteDir: 'memory',
    poolSize: 2,
    queryTimeoutMs: TOOL_QUERY_TIMEOUT_MS,
  });
  peak = 0;
  const started = Date.now();
  let shown = 0;
  const verification = await moveDatabase(source, target, (p) => {
    if (Date.now() - shown < 2000) return;
    shown = Date.now();
    const rate = Math.round(p.rows / ((Date.now() - started) / 1000));
    progress(
      `moving: ${p.rows} of ${p.totalRows} rows (${p.table}), ${rate} rows/s, RSS ${mib(process.memoryUsage().rss)}, ${seconds(Date.now() - started)}`,
    );
  });
  const ms = Date.now() - started;
  endProgress();
  const records = verification.find((v) => v.table === 'health_records');
  process.stdout.write(
    `moved and verified ${readings} readings in ${seconds(ms)} (copy, partitions, sequences, then counts and sampled checksums): ${seconds(ms / (readings / 1e6))} per million, peak RSS ${mib(peak)}\n` +
      `verification: health_records ${records?.source} → ${records?.target}, sample of ${records?.sampled} ${records?.sourceSum === records?.targetSum ? 'the same' : 'DIFFERENT'}\n`,
  );
  await target.close();
  await source.close();
} finally {
  clearInterval(sampler);
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
  rmSync(dir, { recursive: true, force: true });
}
