import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { ServerApi } from '../api.ts';
import type { SimulatedDevice } from '../devices.ts';
import { dashboardReads, type ListSizes, type ReadResult } from './http-load.ts';
import type { Window } from './load.ts';
import { withLoadWorker } from './load-worker.ts';
import { fmt, log } from './report.ts';
import type { ServerProcess } from './server.ts';

/** A database the bench seeds directly: node-postgres's client and PGlite both answer this. */
export interface SqlClient {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * After seeding, bring the database to the state autovacuum keeps a live one in: statistics
 * gathered and the visibility map set (index-only scans without heap visits). Measured straight
 * after millions of fresh rows, the reads shared both cores with autovacuum catching up on them.
 */
export const settleDatabase = (db: SqlClient) => db.query('vacuum analyze');

const VITALS = ['spo2', 'heart_rate', 'temperature', 'battery'];
const VITALS_SQL = `least(100, 94 + (s % 6)), 60 + (s % 41), 97.5 + (s % 10) / 10.0, 100 - (s % 80)`;

/**
 * `count` readings of each device in `deviceIds`, one every `stepS` seconds ending `endsAgoS`
 * seconds before now, written by the database itself (generate_series) into the partitioned table
 * in slices of `slice` readings, then their minute and hour rollups: millions a minute, where
 * ingestion would take hours. The rollups take only these devices' readings: the first call's
 * rollups are not made again.
 */
export async function seedReadings(
  db: SqlClient,
  deviceIds: string[],
  count: number,
  stepS: number,
  onProgress: (stored: number) => void,
  endsAgoS = 0,
) {
  await db.query(
    `select ensure_time_partitions(t, p, now() - make_interval(secs => ${count * stepS + endsAgoS}), now())
     from (values ('health_records', 'week'), ('health_rollups_minute', 'month'), ('health_rollups_hour', 'year')) v(t, p)`,
  );
  const slice = 500_000;
  let stored = 0;
  for (const id of deviceIds) {
    const seq = `(select seq from devices where id = '${id}'::uuid)`;
    for (let first = 1; first <= count; first += slice) {
      const last = Math.min(count, first + slice - 1);
      await db.query(
        `insert into health_records (recorded_at, device_seq, spo2, heart_rate, temperature, battery, message_id)
         select now() - make_interval(secs => (${count} - s) * ${stepS} + ${endsAgoS}), ${seq}, ${VITALS_SQL},
           substr(md5('${id}'), 1, 8) || '-' || to_hex(s)
         from generate_series(${first}, ${last}) as s`,
      );
      stored += last - first + 1;
      onProgress(stored);
    }
  }
  // All the devices' rollups in one pass per width: one per device, on a table not yet analysed,
  // read the whole table each time (199 fleet devices took minutes).
  const seqs = `(select seq from devices where id = any('{${deviceIds.join(',')}}'::uuid[]))`;
  for (const width of ['minute', 'hour']) {
    await db.query(
      `insert into health_rollups_${width} (device_seq, bucket, readings, ${VITALS.map((v) => `${v}_count, ${v}_sum, ${v}_min, ${v}_max`).join(', ')})
       select device_seq, date_bin(interval '1 ${width}', recorded_at, timestamptz '2000-01-01T00:00:00Z'), count(*),
         ${VITALS.map((v) => `count(${v}), coalesce(sum(${v}::float8), 0), min(${v}), max(${v})`).join(', ')}
       from health_records where device_seq in ${seqs} group by 1, 2`,
    );
  }
  await settleDatabase(db);
}

/**
 * `perDevice` resolved alerts of each device in `deviceIds`, evenly over the `spanMin` minutes
 * before now, in one statement (the migrations' triggers keep their counts as ingestion would).
 * Written by the database rather than sent: alerts sent in become the alert engine's work
 * (escalations, reminders), which went on into the next server's measurements.
 */
export async function seedAlerts(
  db: SqlClient,
  deviceIds: string[],
  perDevice: number,
  spanMin: number,
  prefix: string,
) {
  if (perDevice === 0 || deviceIds.length === 0) return;
  const everyS = (spanMin * 60) / perDevice;
  await db.query(
    `insert into alerts (device_id, message_id, alert_type, alert_title, alert_message, recorded_at, created_at, priority, status, resolved_at)
     select d, '${prefix}-' || s, t.type, t.title, t.title, at, at, t.priority, 'resolved', at
     from unnest('{${deviceIds.join(',')}}'::uuid[]) d, generate_series(1, ${perDevice}) s,
       lateral (select now() - make_interval(secs => s * ${everyS}) as at) w,
       lateral (select case s % 3 when 0 then 'FALL' when 1 then 'SOS' else 'LOW_BATTERY' end as type,
         case s % 3 when 0 then 'Fall detected' when 1 then 'SOS' else 'Low battery' end as title,
         case s % 3 when 2 then 'low' else 'high' end as priority) t`,
  );
}

/** CPU µs a request answered in the window of `r` ('–' where not sampled). */
const perRequest = (r: ReadResult, seconds: (cpu: NonNullable<ReadResult['cpu']>) => number) =>
  r.cpu && r.requests > 0 ? `${fmt((seconds(r.cpu) * 1e6) / r.requests)} µs` : '–';

/**
 * The reads' table of one database, each read's rate beside `/healthz`'s, and where its CPU went:
 * µs a request in the server (with PGlite, its database too), the processes named `postgres` on
 * this machine and the bench's own process (its load generator), and the cores the machine kept
 * busy. Where those three share the machine's cores, a read costing three times `/healthz`'s CPU
 * cannot run at more than a third of its rate.
 */
export function printReads(
  database: string,
  results: ReadResult[],
  readyMs: number,
  stored: { readings: number; alerts: number },
) {
  const healthz = results[0]?.perSecond ?? Number.NaN;
  const rows = [
    [
      'read',
      'req/s',
      '% of /healthz',
      'p50',
      'p99',
      'errors',
      'CPU: server',
      'postgres',
      'bench',
      'cores busy',
    ],
    ...results.map((r) => [
      r.label,
      fmt(r.perSecond),
      `${Math.round((100 * r.perSecond) / healthz)} %`,
      `${r.p50.toFixed(1)} ms`,
      `${r.p99.toFixed(1)} ms`,
      String(r.errors),
      perRequest(r, (c) => c.server),
      perRequest(r, (c) => c.postgres),
      perRequest(r, (c) => c.bench),
      r.cpu ? ((r.cpu.server + r.cpu.postgres + r.cpu.bench + r.cpu.other) / r.cpu.wall).toFixed(2) : '–',
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  log(
    `\nReads on ${database} (${fmt(stored.readings)} readings and ${fmt(stored.alerts)} alerts stored; start to ready ${fmt(readyMs)} ms on that database):`,
  );
  for (const r of rows) log(`  ${r.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`);
}

/** The targets of issue 24, from both databases' tables of this run. */
export function readTargets(byDatabase: Map<string, { results: ReadResult[]; readyMs: number }>) {
  const pg = byDatabase.get('postgres');
  const lite = byDatabase.get('pglite');
  const mark = (ok: boolean | undefined) => (ok === undefined ? 'not measured' : ok ? 'met' : 'NOT met');
  log('\nTargets (issue 24):');
  if (pg) {
    const healthz = pg.results[0]?.perSecond ?? Number.NaN;
    const simple = pg.results.filter(
      (r) => !r.label.startsWith('history') && r.label !== 'GET /healthz' && r.who !== 'team',
    );
    const share = (r: ReadResult) => `${r.label}, ${Math.round((100 * r.perSecond) / healthz)} %`;
    const slowestOf = (rs: ReadResult[]) => rs.reduce((a, b) => (a.perSecond <= b.perSecond ? a : b));
    // With --reads, only what was measured is judged.
    if (simple.length > 0)
      log(
        `  ${mark(slowestOf(simple).perSecond >= 0.3 * healthz)}: simple authenticated reads ≥ 30 % of /healthz on PostgreSQL (slowest: ${share(slowestOf(simple))})`,
      );
    const team = pg.results.filter((r) => r.who === 'team');
    if (team.length > 0)
      log(
        `  shown, not judged: a care team's lists of every device (slowest: ${share(slowestOf(team))}); their answers grow with the team (see the README)`,
      );
    const histories = pg.results.filter((r) => r.label.startsWith('history'));
    if (histories.length > 0) {
      const worst = Math.max(...histories.map((r) => r.p99));
      log(`  ${mark(worst <= 50)}: history p99 ≤ 50 ms on PostgreSQL (worst ${worst.toFixed(1)} ms)`);
    }
    log(`  ${mark(pg.readyMs <= 1500)}: start to ready ≤ 1.5 s on PostgreSQL (${fmt(pg.readyMs)} ms)`);
  }
  if (pg && lite) {
    const ratios = lite.results.map((r) => {
      const p = pg.results.find((x) => x.label === r.label);
      return { label: r.label, ratio: p ? r.perSecond / p.perSecond : Number.NaN };
    });
    const worst = ratios.reduce((a, b) => (a.ratio <= b.ratio ? a : b));
    log(
      `  ${mark(worst.ratio >= 0.5)}: on PGlite no read slower than half its PostgreSQL rate (lowest: ${worst.label}, ${Math.round(worst.ratio * 100)} %)`,
    );
  } else log(`  ${mark(undefined)}: PGlite against PostgreSQL (run both databases)`);
}

/** Each database's reads (of the last server measured on it: this checkout's). */
export type ReadsByDatabase = Map<string, { results: ReadResult[]; readyMs: number }>;

/** A server to measure on the seeded database: this checkout's, or another's for before / after. */
export interface ServerVariant {
  label: string;
  start: () => Promise<ServerProcess>;
}

/** Alerts of the last ten minutes on the watched device: the bell's newest, a page however few the past ones. */
const ALERTS = 200;

/** The devices a family member sees: the watched device and two more. */
const FAMILY_DEVICES = 3;

/**
 * `--phases reads`: `readings` stored (the first device at 1 Hz for up to 30 days, the rest a
 * minute apart over the others) straight into the database (PGlite's with the server stopped, it
 * holds the only connection), the server started again on it (start to ready), then each read
 * of the dashboard under load. Prints the table; returns it for the targets.
 */
export async function readsPhase(o: {
  database: 'postgres' | 'pglite';
  databaseUrl?: string;
  pgliteDir: string;
  devices: SimulatedDevice[];
  readings: number;
  /** Past alerts of each device (`seedAlerts`). */
  alertsPerDevice: number;
  /**
   * One user a connection, signed in again on each server (a token lives 15 minutes): made members
   * of one care team holding every device, their direct assignments removed.
   */
  users: { userId: string; username: string; password: string }[];
  /** As many family members, each given the first FAMILY_DEVICES devices only. */
  families: { userId: string; username: string; password: string }[];
  /** Only the reads whose label contains one of these (and `/healthz`). */
  only?: string[];
  window: Window;
  stopServer: () => Promise<void>;
  servers: ServerVariant[];
}) {
  const [dense, ...fleet] = o.devices;
  if (!dense) throw new Error('reads: no device');
  await o.stopServer();
  const started = performance.now();
  const denseCount = Math.min(o.readings, 30 * 24 * 3600);
  const perFleet = fleet.length > 0 ? Math.floor((o.readings - denseCount) / fleet.length) : 0;
  const total = denseCount + perFleet * fleet.length;
  const alertCount = o.alertsPerDevice * o.devices.length + ALERTS;
  let db: SqlClient & { close(): Promise<void> };
  if (o.databaseUrl) {
    const client = new pg.Client({ connectionString: o.databaseUrl });
    await client.connect();
    db = { query: (q) => client.query(q), close: () => client.end() };
  } else {
    // pg_trgm: the migrations' search indexes need it to take a row (issue 31).
    const lite = new PGlite({ dataDir: o.pgliteDir, extensions: { pg_trgm } });
    await lite.waitReady;
    db = { query: (q) => lite.exec(q), close: () => lite.close() };
  }
  let printed = 0;
  const progress = (base: number) => (stored: number) => {
    const now = base + stored;
    if (now - printed < 1_000_000 && now < total) return;
    printed = now;
    const s = (performance.now() - started) / 1000;
    log(`  reads: ${fmt(now)} of ${fmt(total)} readings stored (${s.toFixed(0)} s)`);
  };
  try {
    log(`  reads: seeding ${fmt(total)} readings into ${o.database}…`);
    await seedReadings(db, [dense._id], denseCount, 1, progress(0));
    if (perFleet > 0)
      await seedReadings(
        db,
        fleet.map((d) => d._id),
        perFleet,
        60,
        progress(denseCount),
      );
    log(`  reads: seeding ${fmt(alertCount)} alerts (${fmt(o.alertsPerDevice)} a device over a year)…`);
    await seedAlerts(
      db,
      o.devices.map((d) => d._id),
      o.alertsPerDevice,
      365 * 24 * 60,
      'history',
    );
    await seedAlerts(db, [dense._id], ALERTS, 10, 'bench');
    const uuids = (ids: string[]) => `'{${ids.join(',')}}'::uuid[]`;
    // A care team sees its devices through the team (every grant's second branch), a family
    // through direct assignments: each as the product gives them.
    await db.query(
      `with team as (insert into teams (name) values ('Bench care team') returning id),
       held as (insert into team_devices (team_id, device_id)
         select team.id, d from team, unnest(${uuids(o.devices.map((d) => d._id))}) d),
       members as (insert into team_users (team_id, user_id)
         select team.id, u from team, unnest(${uuids(o.users.map((u) => u.userId))}) u)
       delete from device_users where user_id = any(${uuids(o.users.map((u) => u.userId))})`,
    );
    await db.query(
      `insert into device_users (device_id, user_id)
       select d, u from unnest(${uuids(o.devices.slice(0, FAMILY_DEVICES).map((d) => d._id))}) d,
         unnest(${uuids(o.families.map((f) => f.userId))}) u`,
    );
    await settleDatabase(db);
  } finally {
    await db.close();
  }
  const measured: { label: string; results: ReadResult[]; readyMs: number }[] = [];
  for (const variant of o.servers) {
    const server = await variant.start();
    log(`  reads (${variant.label}): server ready in ${fmt(server.readyMs)} ms on the seeded database`);
    const api = new ServerApi(server.url);
    const signIn = async (us: { username: string; password: string }[]) => {
      const tokens: string[] = [];
      for (const u of us) tokens.push((await api.login(u.username, u.password)).accessToken);
      return tokens;
    };
    const tokens = { team: await signIn(o.users), family: await signIn(o.families) };
    const sizes: ListSizes = { family: FAMILY_DEVICES, team: o.devices.length };
    const results = await withLoadWorker(async (load) => {
      const measuredReads: ReadResult[] = [];
      const wanted = ({ label }: { label: string }) =>
        label === 'GET /healthz' || !o.only || o.only.some((part) => label.includes(part));
      for (const { label, who } of dashboardReads(dense._id, sizes).filter(wanted)) {
        const r = await load.loadRead({
          serverUrl: server.url,
          tokens: tokens[who ?? 'team'],
          deviceId: dense._id,
          sizes,
          label,
          warmupMs: o.window.warmupMs,
          durationMs: o.window.durationMs,
          serverPid: server.pid,
        });
        log(
          `  reads (${variant.label}): ${r.label}: ${fmt(r.perSecond)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms`,
        );
        measuredReads.push(r);
      }
      return measuredReads;
    });
    await server.stop();
    printReads(`${o.database}, ${variant.label}`, results, server.readyMs, {
      readings: total,
      alerts: alertCount,
    });
    measured.push({ label: variant.label, results, readyMs: server.readyMs });
  }
  if (measured.length > 1) printBeforeAfter(o.database, measured);
  const ours = measured.at(-1)!;
  return { results: ours.results, readyMs: ours.readyMs };
}

/** req/s and p99 of each server side by side, measured back to back on one seeded database. */
function printBeforeAfter(database: string, measured: { label: string; results: ReadResult[] }[]) {
  const rows = [
    ['read', ...measured.flatMap((m) => [`${m.label} req/s`, 'p99'])],
    ...measured[0]!.results.map((r, i) => [
      r.label,
      ...measured.flatMap((m) => [fmt(m.results[i]!.perSecond), `${m.results[i]!.p99.toFixed(1)} ms`]),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  log(`\nBefore / after on ${database} (back to back, same seeded database):`);
  for (const r of rows) log(`  ${r.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`);
}
