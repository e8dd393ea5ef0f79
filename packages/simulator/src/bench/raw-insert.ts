import pg from 'pg';
import type { Window } from './load.ts';

/** Rows per statement: the ingest API's batch limit. */
const ROWS_PER_INSERT = 500;
const COLUMNS = 7;

/**
 * What the ingest path is measured against (issue 10's "raw multi-row insert"): one connection
 * sending `INSERT … VALUES` statements of 500 readings, every column a parameter, into the same
 * partitioned table, straight from this process: no HTTP, no MQTT, no rollups, no duplicate check,
 * no alert engine. Rows per second over the measured window.
 */
export async function rawInsertRate(
  databaseUrl: string,
  deviceIds: string[],
  window: Window,
  onStart: () => void,
  /** Called when the measured window ends, while this connection's PostgreSQL backend still runs. */
  onEnd: () => void,
): Promise<{ perSecond: number; count: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const placeholders = Array.from(
    { length: ROWS_PER_INSERT },
    (_, r) => `(${Array.from({ length: COLUMNS }, (_, c) => `$${r * COLUMNS + c + 1}`).join(', ')})`,
  ).join(', ');
  try {
    const { rows } = await client.query<{ seq: number }>(
      'select seq from devices where id = any($1::uuid[])',
      [deviceIds],
    );
    const seqs = rows.map((r) => r.seq);
    let counting = false;
    let stop = false;
    let count = 0;
    let n = 0;
    const loop = (async () => {
      while (!stop) {
        const now = Date.now();
        const values = Array.from({ length: ROWS_PER_INSERT }, (_, i) => [
          new Date(now - ((n + i) % 1000)).toISOString(),
          seqs[(n + i) % seqs.length]!,
          97,
          72,
          98.2,
          80,
          `raw-${(n + i).toString(36)}`,
        ]).flat();
        n += ROWS_PER_INSERT;
        await client.query(
          `insert into health_records (recorded_at, device_seq, spo2, heart_rate, temperature, battery, message_id)
           values ${placeholders}`,
          values,
        );
        if (counting) count += ROWS_PER_INSERT;
      }
    })();
    await new Promise((r) => setTimeout(r, window.warmupMs));
    counting = true;
    onStart();
    const started = performance.now();
    await new Promise((r) => setTimeout(r, window.durationMs));
    counting = false;
    onEnd();
    const seconds = (performance.now() - started) / 1000;
    stop = true;
    await loop;
    return { perSecond: count / seconds, count };
  } finally {
    await client.end();
  }
}
