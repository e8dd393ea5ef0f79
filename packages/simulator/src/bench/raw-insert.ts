import pg from 'pg';
import type { Window } from './load.ts';

/** Rows per statement and statements in flight: what the server's own group commit does at best. */
const ROWS_PER_INSERT = 1000;
const CONNECTIONS = 4;

/**
 * The ceiling the ingest path is measured against: plain multi-row inserts of readings into the
 * same partitioned table, straight from this process (no HTTP, no MQTT, no rollups, no duplicate
 * check, no alert engine), over `CONNECTIONS` connections for the measured window. Rows per second.
 */
export async function rawInsertRate(
  databaseUrl: string,
  deviceIds: string[],
  window: Window,
  onStart: () => void,
): Promise<{ perSecond: number; count: number }> {
  const clients = await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      return c;
    }),
  );
  try {
    const { rows } = await clients[0]!.query<{ seq: number }>(
      'select seq from devices where id = any($1::uuid[])',
      [deviceIds],
    );
    const seqs = rows.map((r) => r.seq);
    let counting = false;
    let count = 0;
    let stop = false;
    let n = 0;
    const insertLoop = async (c: pg.Client) => {
      while (!stop) {
        const now = Date.now();
        const batch = Array.from({ length: ROWS_PER_INSERT }, (_, i) => ({
          seq: seqs[(n + i) % seqs.length]!,
          at: new Date(now - ((n + i) % 1000)).toISOString(),
          id: `raw-${n + i}`,
        }));
        n += ROWS_PER_INSERT;
        await c.query(
          `insert into health_records (recorded_at, device_seq, spo2, heart_rate, temperature, battery, message_id)
           select at, seq, 97, 72, 98.2, 80, id from unnest($1::timestamptz[], $2::int[], $3::text[]) as t(at, seq, id)`,
          [batch.map((b) => b.at), batch.map((b) => b.seq), batch.map((b) => b.id)],
        );
        if (counting) count += ROWS_PER_INSERT;
      }
    };
    const loops = clients.map(insertLoop);
    await new Promise((r) => setTimeout(r, window.warmupMs));
    counting = true;
    onStart();
    const started = performance.now();
    await new Promise((r) => setTimeout(r, window.durationMs));
    counting = false;
    const seconds = (performance.now() - started) / 1000;
    stop = true;
    await Promise.all(loops);
    return { perSecond: count / seconds, count };
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}
