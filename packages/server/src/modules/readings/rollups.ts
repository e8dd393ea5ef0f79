import { type SQL, sql } from 'drizzle-orm';
import { healthRollupsHour, healthRollupsMinute } from '../../db/schema.ts';

/** The vitals' column names, in the order the rollup columns follow. */
export const ROLLUP_VITALS = ['spo2', 'heart_rate', 'temperature', 'battery'] as const;

/** Buckets start on whole UTC minutes / hours, whatever the session's time zone. */
const ORIGIN = sql.raw(`timestamptz '2000-01-01T00:00:00Z'`);

const aggregates = ROLLUP_VITALS.map(
  (v) => `count(${v}), coalesce(sum(${v}::float8), 0), min(${v}), max(${v})`,
).join(', ');
/** The rollup columns, in the order `aggregates` computes them. */
export const ROLLUP_COLUMNS = ROLLUP_VITALS.map((v) => `${v}_count, ${v}_sum, ${v}_min, ${v}_max`).join(', ');
const merge = ROLLUP_VITALS.map(
  (v) =>
    `${v}_count = r.${v}_count + excluded.${v}_count, ${v}_sum = r.${v}_sum + excluded.${v}_sum, ` +
    `${v}_min = least(r.${v}_min, excluded.${v}_min), ${v}_max = greatest(r.${v}_max, excluded.${v}_max)`,
).join(', ');

/**
 * `insert … on conflict do update` adding the rows of `source` (a CTE or table with device_seq,
 * recorded_at and the four vitals) to the minute or hour rollups. Additive, so the order readings
 * arrive in does not matter; `least`/`greatest` ignore a vital the bucket has not seen yet.
 */
export function addToRollups(source: SQL, width: 'minute' | 'hour'): SQL {
  const table = width === 'minute' ? healthRollupsMinute : healthRollupsHour;
  const step = sql.raw(`interval '1 ${width}'`);
  return sql`insert into ${table} as r (device_seq, bucket, readings, ${sql.raw(ROLLUP_COLUMNS)})
    select device_seq, date_bin(${step}, recorded_at, ${ORIGIN}) as bucket, count(*), ${sql.raw(aggregates)}
    from ${source} group by 1, 2
    on conflict (device_seq, bucket) do update set readings = r.readings + excluded.readings, ${sql.raw(merge)}`;
}
