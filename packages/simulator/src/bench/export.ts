import pg from 'pg';
import { seedDevice } from './history.ts';
import { settleDatabase } from './reads.ts';
import { fmt, log } from './report.ts';
import { rssMb } from './server.ts';

const DAY_S = 24 * 3600;

export interface ExportBenchOptions {
  serverUrl: string;
  serverPid: number;
  /** The server's own (scratch) database, seeded directly. */
  databaseUrl: string;
  accessToken: string;
  deviceId: string;
  /** Days of one reading a second (default 90: 7.8 M readings). */
  days: number;
}

/**
 * `--phases export`: a device sending once a second for `days` days, then its CSV exports (every
 * reading, and hourly) and its PDF report through the real server, timed, with the server's
 * resident memory sampled every 100 ms: flat memory is the point of streaming.
 */
export async function exportPhase(o: ExportBenchOptions): Promise<void> {
  const db = new pg.Client({ connectionString: o.databaseUrl });
  await db.connect();
  try {
    const readings = o.days * DAY_S;
    log(`  export: seeding ${fmt(readings)} readings (${o.days} days at 1 Hz)…`);
    const seeded = performance.now();
    await seedDevice(db, o.deviceId, readings, 1);
    await settleDatabase(db);
    log(`  export: seeded in ${((performance.now() - seeded) / 1000).toFixed(0)} s`);
  } finally {
    await db.end();
  }
  const to = new Date();
  const from = new Date(to.getTime() - o.days * DAY_S * 1000);
  const rows: string[][] = [['export', 'rows', 'MB', 'seconds', 'rows/s', 'server RSS before → peak']];
  const exports = [
    ['every reading, CSV', 'readings', { resolution: 'raw' }],
    ['hourly, CSV', 'readings', { resolution: 'hour' }],
    ['PDF report', 'report', { timeZone: 'UTC' }],
  ] as const;
  for (const [label, kind, params] of exports) {
    const before = rssMb(o.serverPid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(o.serverPid));
    }, 100);
    const started = performance.now();
    const url = new URL(`/api/v1/export/${kind}/${o.deviceId}`, o.serverUrl);
    url.search = new URLSearchParams({
      from: from.toISOString(),
      to: to.toISOString(),
      ...params,
    }).toString();
    const res = await fetch(url, { headers: { authorization: `Bearer ${o.accessToken}` } });
    if (!res.ok || !res.body) throw new Error(`export ${label}: ${res.status} ${await res.text()}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body) {
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 10) lines++;
    }
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    // A CSV's rows, less its header; a PDF has pages, not rows.
    const dataRows = kind === 'readings' ? lines - 1 : null;
    rows.push([
      `${o.days} days, ${label}`,
      dataRows === null ? '–' : fmt(dataRows),
      (bytes / 1e6).toFixed(1),
      seconds.toFixed(1),
      dataRows === null ? '–' : fmt(Math.round(dataRows / seconds)),
      `${before.toFixed(0)} → ${peak.toFixed(0)} MB`,
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) log(`  ${r.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`);
}
