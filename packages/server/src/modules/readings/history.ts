import {
  type HealthHistory,
  type HistoryBucket,
  type HistorySummary,
  historyResolution,
  type VitalStats,
} from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { deviceSeqOf } from '../../db/device-seq.ts';
import type { Tx } from '../../db/index.ts';
import { epochMs, preparedRows } from '../../db/raw-rows.ts';
import { ROLLUP_COLUMNS, ROLLUP_VITALS } from './rollups.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const ORIGIN = sql.raw(`timestamptz '2000-01-01T00:00:00Z'`);
const iso = (d: Date) => d.toISOString();
const rollups = (table: 'minute' | 'hour') => sql.raw(`health_rollups_${table}`);

const num = z.coerce.number().nullable();
/** Aggregates of one bucket (or of the whole range), as every query below returns them. */
type AggregateColumn = `${(typeof ROLLUP_VITALS)[number]}_${'count' | 'sum' | 'min' | 'max'}`;
const aggregateRow = z.object({
  t_ms: epochMs.nullable(),
  readings: z.coerce.number(),
  // `<vital>_count`, `_sum`, `_min`, `_max` of each vital, named: a named shape is parsed by code
  // zod compiles for it, a catchall key by key (480 rows: 0.34 ms against 0.83 ms).
  ...(Object.fromEntries(
    ROLLUP_VITALS.flatMap((v) => ['count', 'sum', 'min', 'max'].map((a) => [`${v}_${a}`, num])),
  ) as Record<AggregateColumn, typeof num>),
});
type AggregateRow = z.infer<typeof aggregateRow>;

const vitalKey = {
  spo2: 'spo2',
  heart_rate: 'heartRate',
  temperature: 'temperature',
  battery: 'battery',
} as const;

/** Two decimals: more than any device measures (values are stored as `real`, 97.5 reads 97.5000…1). */
const round2 = (v: number) => Math.round(v * 100) / 100;

/** Each vital's column names, made once (a 7 d history asks for them 7,680 times). */
const columnsOf = ROLLUP_VITALS.map((v) => ({
  key: vitalKey[v],
  count: `${v}_count`,
  sum: `${v}_sum`,
  min: `${v}_min`,
  max: `${v}_max`,
})) as {
  key: (typeof vitalKey)[keyof typeof vitalKey];
  count: AggregateColumn;
  sum: AggregateColumn;
  min: AggregateColumn;
  max: AggregateColumn;
}[];

/** A vital's stats; a bucket's to two decimals (JSON size), the range summary's exact. */
function stats(row: AggregateRow, c: (typeof columnsOf)[number], exact: boolean): VitalStats {
  const count = row[c.count] ?? 0;
  if (count === 0) return null;
  const min = row[c.min] ?? 0;
  const mean = (row[c.sum] ?? 0) / count;
  const max = row[c.max] ?? 0;
  return exact ? [min, mean, max, count] : [round2(min), round2(mean), round2(max), count];
}

function vitalsOf(row: AggregateRow, exact = false) {
  const out = { readings: row.readings } as { readings: number } & Record<
    (typeof vitalKey)[keyof typeof vitalKey],
    VitalStats
  >;
  for (const c of columnsOf) out[c.key] = stats(row, c, exact);
  return out;
}

/** Sum the additive columns of `source` rows, grouped by `bucket` (or into one row). */
const sums = ROLLUP_VITALS.map(
  (v) =>
    `sum(${v}_count) as ${v}_count, sum(${v}_sum) as ${v}_sum, min(${v}_min) as ${v}_min, max(${v}_max) as ${v}_max`,
).join(', ');
/** One raw reading as a rollup row. */
const asRollup = ROLLUP_VITALS.map(
  (v) =>
    `(${v} is not null)::int as ${v}_count, coalesce(${v}::float8, 0) as ${v}_sum, ${v} as ${v}_min, ${v} as ${v}_max`,
).join(', ');

const p = (name: string) => sql.placeholder(name);
const ts = (name: string) => sql`${p(name)}::timestamptz`;
/** The rows of the device named by the `deviceId` placeholder. */
const onDevice = sql`device_seq = ${deviceSeqOf(p('deviceId'))}`;
/** The device's raw readings in [`from`, `to`]. */
const readingsIn = sql`${onDevice} and recorded_at >= ${ts('from')} and recorded_at <= ${ts('to')}`;
const between = (a: string, b: string) => sql`bucket >= ${ts(a)} and bucket < ${ts(b)}`;
const cols = sql.raw(ROLLUP_COLUMNS);

/**
 * The summary's statement: with `hours`, hour rollups for the whole hours inside the range
 * (`firstHour` to `lastHour`) and minute rollups around them; without, minute rollups alone.
 */
const summaryOf = (hours: boolean) =>
  preparedRows(
    hours ? 'history_summary_hours' : 'history_summary_minutes',
    sql`select null as t_ms, coalesce(sum(readings), 0) as readings, ${sql.raw(sums)} from (
        ${hours ? sql`select readings, ${cols} from ${rollups('hour')} where ${onDevice} and ${between('firstHour', 'lastHour')} union all` : sql``}
        select readings, ${cols} from ${rollups('minute')}
        where ${onDevice} and ${between('firstWhole', 'lastWhole')}
          ${hours ? sql`and not (${between('firstHour', 'lastHour')})` : sql``}
        union all
        select 1, ${sql.raw(asRollup)} from health_records
        where ${readingsIn} and (recorded_at < ${ts('firstWhole')} or recorded_at >= ${ts('lastWhole')})
      ) s`,
    aggregateRow,
  );
const summaryStatements = { hours: summaryOf(true), minutes: summaryOf(false) };

/** Every raw reading in the range as a bucket of one. */
const rawBuckets = preparedRows(
  'history_raw',
  sql`select extract(epoch from recorded_at) * 1000 as t_ms, 1 as readings, ${sql.raw(asRollup)}
    from health_records where ${readingsIn} order by recorded_at, id`,
  aggregateRow,
);

/**
 * Buckets of `minutes` minutes summed from one rollup table. Grouped and sorted by the timestamp,
 * not by its epoch (a numeric): sorting 10,080 minute rows of a 7 d window by a numeric took twice
 * as long as the rest of the query.
 */
const rolledBuckets = (source: 'minute' | 'hour') => {
  const step = sql`make_interval(mins => ${p('minutes')}::int)`;
  return preparedRows(
    `history_${source}_buckets`,
    sql`select extract(epoch from b) * 1000 as t_ms, readings, ${cols} from (
        select date_bin(${step}, bucket, ${ORIGIN}) as b, sum(readings) as readings, ${sql.raw(sums)}
        from ${rollups(source)}
        where ${onDevice} and bucket >= date_bin(${step}, ${ts('from')}, ${ORIGIN}) and bucket <= ${ts('to')}
        group by 1) g
      order by b`,
    aggregateRow,
  );
};
const bucketStatements = { minute: rolledBuckets('minute'), hour: rolledBuckets('hour') };

const asBuckets = (rows: AggregateRow[]): HistoryBucket[] =>
  rows.map((r) => ({ t: new Date(r.t_ms ?? 0).toISOString(), ...vitalsOf(r) }));

/**
 * Exact and cheap: the count and the min, average and max of each vital over [from, to], from
 * hour rollups for the whole hours inside the range, minute rollups for the whole minutes around
 * them and raw readings for the partial minutes at the ends.
 */
export async function rangeSummary(tx: Tx, deviceId: string, from: Date, to: Date): Promise<HistorySummary> {
  const firstWhole = new Date(Math.ceil(from.getTime() / MINUTE) * MINUTE);
  const lastWhole = new Date(Math.floor(to.getTime() / MINUTE) * MINUTE);
  const firstHour = new Date(Math.ceil(from.getTime() / HOUR) * HOUR);
  const lastHour = new Date(Math.max(firstHour.getTime(), Math.floor(to.getTime() / HOUR) * HOUR));
  const hoursInside = firstHour < lastHour && firstWhole <= firstHour && lastHour <= lastWhole;
  const values = {
    deviceId,
    from: iso(from),
    to: iso(to),
    firstWhole: iso(firstWhole),
    lastWhole: iso(lastWhole),
  };
  const [summaryRow] = hoursInside
    ? await summaryStatements.hours(tx, { ...values, firstHour: iso(firstHour), lastHour: iso(lastHour) })
    : await summaryStatements.minutes(tx, values);
  return vitalsOf(summaryRow!, true);
}

/**
 * A device's history over [from, to] within `points` buckets, at the resolution
 * `historyResolution` (shared rules) picks: every raw reading when they fit, else n-minute buckets
 * summed from minute rollups, or whole hours from hour rollups. The summary is `rangeSummary`'s.
 */
export async function deviceHistory(
  tx: Tx,
  deviceId: string,
  from: Date,
  to: Date,
  points: number,
): Promise<HealthHistory> {
  const summary = await rangeSummary(tx, deviceId, from, to);
  const base = { from: iso(from), to: iso(to), summary };
  const { source, bucketMinutes } = historyResolution(from.getTime(), to.getTime(), points, summary.readings);

  if (source === 'raw') {
    return {
      ...base,
      resolution: 'raw',
      bucketSeconds: 0,
      buckets: asBuckets(await rawBuckets(tx, { deviceId, from: iso(from), to: iso(to) })),
    };
  }
  const rows = await bucketStatements[source](tx, {
    deviceId,
    from: iso(from),
    to: iso(to),
    minutes: bucketMinutes,
  });
  return { ...base, resolution: source, bucketSeconds: bucketMinutes * 60, buckets: asBuckets(rows) };
}
