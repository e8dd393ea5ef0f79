import { healthHistoryResponse } from '@vitalwatch/shared';
import pg from 'pg';
import { settleDatabase } from './reads.ts';
import { fmt, log, percentile } from './report.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface HistoryBenchOptions {
  serverUrl: string;
  /** The server's own (scratch) database, seeded directly: far faster than through ingestion. */
  databaseUrl: string;
  accessToken: string;
  /** A device sending once a second for 30 days, and fleet devices once a minute for 90 days. */
  denseDeviceId: string;
  fleetDeviceIds: string[];
  /** Readings to store in all (the dense device's 2.6 M, the rest spread over the fleet). */
  readings: number;
  /** History calls per range. */
  calls: number;
}

const VITALS_SQL = `least(100, 94 + (s % 6)), 60 + (s % 41), 97.5 + (s % 10) / 10.0, 100 - (s % 80)`;

/**
 * Readings every `stepS` seconds ending now, oldest first as a device sends them, with messageIds
 * shaped like the simulator's (8 hex digits, a dash, a counter), straight into the
 * partitioned table; then their rollups.
 */
export async function seedDevice(db: pg.Client, deviceId: string, count: number, stepS: number) {
  const seq = `(select seq from devices where id = $1::uuid)`;
  await db.query(
    `select ensure_time_partitions(t, p, now() - make_interval(secs => $1::int * $2::int), now())
     from (values ('health_records', 'week'), ('health_rollups_minute', 'month'), ('health_rollups_hour', 'year')) v(t, p)`,
    [count, stepS],
  );
  await db.query(
    `insert into health_records (recorded_at, device_seq, spo2, heart_rate, temperature, battery, message_id)
     select now() - make_interval(secs => ($3::int - s) * $2::int), ${seq}, ${VITALS_SQL},
       substr(md5($1::text), 1, 8) || '-' || to_hex(s)
     from generate_series(1, $3::int) as s`,
    [deviceId, stepS, count],
  );
  for (const width of ['minute', 'hour']) {
    const vitals = ['spo2', 'heart_rate', 'temperature', 'battery'];
    await db.query(
      `insert into health_rollups_${width} (device_seq, bucket, readings, ${vitals.map((v) => `${v}_count, ${v}_sum, ${v}_min, ${v}_max`).join(', ')})
       select device_seq, date_bin(interval '1 ${width}', recorded_at, timestamptz '2000-01-01T00:00:00Z'), count(*),
         ${vitals.map((v) => `count(${v}), coalesce(sum(${v}::float8), 0), min(${v}), max(${v})`).join(', ')}
       from health_records where device_seq = ${seq} group by 1, 2`,
      [deviceId],
    );
  }
}

/** Table, indexes and TOAST of every partition of a partitioned table, in bytes. */
async function sizeOf(db: pg.Client, table: string): Promise<{ bytes: number; partitions: number }> {
  const { rows } = await db.query<{ bytes: string; partitions: string }>(
    `select coalesce(sum(pg_total_relation_size(inhrelid)), 0) as bytes, count(*) as partitions
     from pg_inherits where inhparent = $1::regclass`,
    [table],
  );
  return { bytes: Number(rows[0]?.bytes ?? 0), partitions: Number(rows[0]?.partitions ?? 0) };
}

/**
 * `--phases history`: seed the readings, then time the history call for each range and print, per
 * range, p50 / p99, bytes of JSON, the share of the window its buckets cover, and the bytes stored
 * per reading (table and indexes, raw and rollups).
 */
export async function historyPhase(o: HistoryBenchOptions): Promise<void> {
  const db = new pg.Client({ connectionString: o.databaseUrl });
  await db.connect();
  try {
    const dense = Math.min(o.readings, 30 * 24 * 3600);
    const perFleetDevice = Math.max(
      0,
      Math.ceil((o.readings - dense) / Math.max(1, o.fleetDeviceIds.length)),
    );
    const started = performance.now();
    log(`  history: seeding ${fmt(dense)} readings at 1 Hz (30 days at most)…`);
    // The newest reading of each device is its seeding time: windows are covered up to it.
    const newest = new Map<string, number>();
    await seedDevice(db, o.denseDeviceId, dense, 1);
    newest.set(o.denseDeviceId, Date.now());
    let seeded = dense;
    for (const [i, id] of o.fleetDeviceIds.entries()) {
      const count = Math.min(perFleetDevice, o.readings - seeded);
      if (count <= 0) break;
      await seedDevice(db, id, count, Math.max(60, Math.floor((90 * 24 * 3600) / count)));
      newest.set(id, Date.now());
      seeded += count;
      log(`  history: fleet device ${i + 1}/${o.fleetDeviceIds.length}, ${fmt(seeded)} readings stored`);
    }
    await settleDatabase(db);
    log(
      `  history: ${fmt(seeded)} readings seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );

    const ranges = [
      ['1 hour', HOUR, o.denseDeviceId],
      ['24 hours', DAY, o.denseDeviceId],
      ['7 days', 7 * DAY, o.denseDeviceId],
      ['30 days', 30 * DAY, o.denseDeviceId],
      ['90 days', 90 * DAY, o.fleetDeviceIds[0] ?? o.denseDeviceId],
    ] as const;
    const rows: string[][] = [
      ['range', 'p50', 'p99', 'JSON', 'buckets', 'resolution', 'covered (up to the newest reading)'],
    ];
    for (const [label, span, deviceId] of ranges) {
      const times: number[] = [];
      let bytes = 0;
      let summary = '';
      for (let i = 0; i < o.calls; i++) {
        const to = Date.now();
        const from = to - span;
        const t0 = performance.now();
        const res = await fetch(new URL(`/api/v1/health/history/${deviceId}`, o.serverUrl), {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${o.accessToken}` },
          body: JSON.stringify({ from: new Date(from).toISOString(), to: new Date(to).toISOString() }),
        });
        const text = await res.text();
        times.push(performance.now() - t0);
        if (!res.ok) throw new Error(`history ${label}: ${res.status} ${text.slice(0, 200)}`);
        bytes = text.length;
        const { data } = healthHistoryResponse.parse(JSON.parse(text));
        const first = data.buckets[0];
        const last = data.buckets.at(-1);
        // Of the window up to the device's newest reading (seeding ended a while before this call).
        const end = Math.min(to, newest.get(deviceId) ?? to);
        const covered =
          first && last
            ? (Math.min(end, Date.parse(last.t) + data.bucketSeconds * 1000) -
                Math.max(from, Date.parse(first.t))) /
              (end - from)
            : 0;
        summary = `${data.buckets.length}|${data.resolution}${data.bucketSeconds > 3600 ? ` ×${data.bucketSeconds / 3600}` : ''}|${Math.round(covered * 100)} %`;
      }
      const sorted = times.sort((a, b) => a - b);
      const [buckets, resolution, covered] = summary.split('|') as [string, string, string];
      rows.push([
        label,
        `${percentile(sorted, 50).toFixed(1)} ms`,
        `${percentile(sorted, 99).toFixed(1)} ms`,
        `${(bytes / 1024).toFixed(1)} kB`,
        buckets,
        resolution,
        covered,
      ]);
    }
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    log(`\nHistory calls (${o.calls} per range, ${fmt(seeded)} readings stored):`);
    for (const r of rows) log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));

    const { rows: count } = await db.query<{ n: string }>('select count(*) as n from health_records');
    const n = Number(count[0]?.n ?? 1);
    const raw = await sizeOf(db, 'health_records');
    const minute = await sizeOf(db, 'health_rollups_minute');
    const hour = await sizeOf(db, 'health_rollups_hour');
    log(
      `\nStorage per reading (table + indexes, all partitions): raw ${(raw.bytes / n).toFixed(0)} B, minute rollups ${(minute.bytes / n).toFixed(1)} B, hour rollups ${(hour.bytes / n).toFixed(2)} B (${fmt(n)} readings in ${raw.partitions} weekly partitions; raw ${(raw.bytes / 1e6).toFixed(0)} MB)`,
    );
  } finally {
    await db.end();
  }
}
