import {
  type HealthHistory,
  type HistoryBucket,
  type HistorySummary,
  historyResolution,
  type VitalStats,
} from '@vitalwatch/shared';
import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { deviceSeqOf } from '../../db/device-seq.ts';
import type { Tx } from '../../db/index.ts';
import { preparedRows } from '../../db/raw-rows.ts';
import { GENERIC_PLAN } from '../../db/server-pglite.ts';
import type { HistoryBucketCache, ReadAt } from './history-cache.ts';
import { ROLLUP_COLUMNS, ROLLUP_VITALS } from './rollups.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const ORIGIN = sql.raw(`timestamptz '2000-01-01T00:00:00Z'`);
const iso = (d: Date) => d.toISOString();
const rollups = (table: 'minute' | 'hour') => sql.raw(`health_rollups_${table}`);

/**
 * The aggregates of one bucket (or of the whole range) as every query below packs them: its time
 * (epoch ms, null for the range), its readings, then count, sum, min and max of each vital in
 * `ROLLUP_VITALS` order. A query's rows come back as one JSON array of these: 480 buckets of 18
 * columns were 8,640 fields for the driver to decode one by one, most of the server's CPU of a
 * 24 h history.
 */
const AGGREGATE_LENGTH = 2 + 4 * ROLLUP_VITALS.length;
const aggregates = z.object({
  packed: z.string().transform((text, ctx) => {
    const rows: unknown = JSON.parse(text);
    const ok =
      Array.isArray(rows) &&
      rows.every(
        (r) =>
          Array.isArray(r) &&
          r.length === AGGREGATE_LENGTH &&
          r.every((v, i) => (v === null && i !== 1) || typeof v === 'number'),
      );
    if (!ok) ctx.addIssue({ code: 'custom', message: 'not a list of packed aggregates' });
    return rows as Aggregate[];
  }),
});
type Aggregate = (number | null)[];

const vitalKey = {
  spo2: 'spo2',
  heart_rate: 'heartRate',
  temperature: 'temperature',
  battery: 'battery',
} as const;
const vitalKeys = ROLLUP_VITALS.map((v) => vitalKey[v]);

/** Two decimals: more than any device measures (values are stored as `real`, 97.5 reads 97.5000…1). */
const round2 = (v: number) => Math.round(v * 100) / 100;

/** The stats of the vital whose columns start at `at`; a bucket's to two decimals (JSON size), the range summary's exact. */
function stats(row: Aggregate, at: number, exact: boolean): VitalStats {
  const count = row[at] ?? 0;
  if (count === 0) return null;
  const min = row[at + 2] ?? 0;
  const mean = (row[at + 1] ?? 0) / count;
  const max = row[at + 3] ?? 0;
  return exact ? [min, mean, max, count] : [round2(min), round2(mean), round2(max), count];
}

function vitalsOf(row: Aggregate, exact = false) {
  const out = { readings: row[1] ?? 0 } as { readings: number } & Record<
    (typeof vitalKeys)[number],
    VitalStats
  >;
  for (const [i, key] of vitalKeys.entries()) out[key] = stats(row, 2 + 4 * i, exact);
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
 * A prepared statement (see `preparedRows`) of `rows` (a subquery with `t_ms`, `readings` and the
 * rollup columns), answered as one JSON text in `order` and resolving to its aggregates. Each reads
 * the partitioned readings or rollups over a range: all run with their generic plans (`summaryOf`).
 */
const packedStatement = (name: string, rows: SQL, order: SQL) => {
  const run = preparedRows(
    name,
    sql`${sql.raw(GENERIC_PLAN)}select coalesce(json_agg(json_build_array(t_ms, readings, ${cols}) order by ${order}), '[]')::text as packed
      from (${rows}) r`,
    aggregates,
  );
  return async (tx: Tx, values: Record<string, unknown>): Promise<Aggregate[]> =>
    (await run(tx, values))[0]?.packed ?? [];
};

/** `table`'s rows of the device with buckets in [`a`, `b`). */
const rollupRange = (table: 'minute' | 'hour', a: string, b: string) =>
  sql`select readings, ${cols} from ${rollups(table)} where ${onDevice} and ${between(a, b)}`;
/** The device's raw readings from `a` up to `to` (and before `b`), each as a rollup row of one. */
const rawRange = (a: string, b?: string) =>
  sql`select 1, ${sql.raw(asRollup)} from health_records
    where ${onDevice} and recorded_at >= ${ts(a)} ${b ? sql`and recorded_at < ${ts(b)}` : sql``}
      and recorded_at <= ${ts('to')}`;

/**
 * The summary's statement: with `hours`, hour rollups for the whole hours inside the range
 * (`firstHour` to `lastHour`) and minute rollups for the whole minutes before and after them;
 * without, minute rollups alone; then the raw readings of the partial minutes at each end. Every
 * part reads one contiguous range of its key, so a plan made for any values (PostgreSQL's generic
 * plan, which a prepared statement switches to after five calls when it looks no dearer) stays
 * narrow: as one range with the middle excluded (`not between`, `or`), the generic plan of a 7 d
 * summary read all 604,800 raw readings of the week and 10,080 minute rows to keep 120 (350–1,150
 * ms a call, the reads bench's 7 d p99 over a second). Left to choose, PostgreSQL plans it anew
 * with the values on every call (its generic plan, with every partition in it, looks dearer); it
 * runs with its generic plan (`GENERIC_PLAN`) on both databases: on PGlite a 24 h history 2.25 →
 * 1.37 ms a call, one at a time; on PostgreSQL the summary 1,130–1,250 → 410–430 µs of its CPU
 * (`PlanRoutingPool`). So are the buckets' statements below, for the same reason: on PostgreSQL
 * 585–665 → 195–220 µs for minute buckets, 2,590–2,780 → 2,300–2,560 µs for 300 raw readings.
 */
const summaryOf = (hours: boolean) =>
  packedStatement(
    hours ? 'history_summary_hours' : 'history_summary_minutes',
    sql`select null::int as t_ms, coalesce(sum(readings), 0) as readings, ${sql.raw(sums)} from (
          ${
            hours
              ? sql`${rollupRange('hour', 'firstHour', 'lastHour')}
                union all ${rollupRange('minute', 'firstWhole', 'firstHour')}
                union all ${rollupRange('minute', 'lastHour', 'lastWhole')}`
              : rollupRange('minute', 'firstWhole', 'lastWhole')
          }
          union all ${rawRange('from', 'firstWhole')}
          union all ${rawRange('tailFrom')}
        ) s`,
    sql`t_ms`,
  );
const summaryStatements = { hours: summaryOf(true), minutes: summaryOf(false) };

/** Every raw reading in the range as a bucket of one. */
const rawBuckets = packedStatement(
  'history_raw',
  sql`select recorded_at, id, extract(epoch from recorded_at) * 1000 as t_ms, 1 as readings, ${sql.raw(asRollup)}
    from health_records where ${readingsIn}`,
  sql`recorded_at, id`,
);

/**
 * Buckets of `minutes` minutes summed from one rollup table. Grouped and sorted by the timestamp,
 * not by its epoch (a numeric): sorting 10,080 minute rows of a 7 d window by a numeric took twice
 * as long as the rest of the query.
 */
const rolledBuckets = (source: 'minute' | 'hour') => {
  const step = sql`make_interval(mins => ${p('minutes')}::int)`;
  return packedStatement(
    `history_${source}_buckets`,
    sql`select b, extract(epoch from b) * 1000 as t_ms, readings, ${cols} from (
        select date_bin(${step}, bucket, ${ORIGIN}) as b, sum(readings) as readings, ${sql.raw(sums)}
        from ${rollups(source)}
        where ${onDevice} and bucket >= date_bin(${step}, ${ts('from')}, ${ORIGIN}) and bucket <= ${ts('to')}
        group by 1) g`,
    sql`b`,
  );
};
const bucketStatements = { minute: rolledBuckets('minute'), hour: rolledBuckets('hour') };

const asBuckets = (rows: Aggregate[]): HistoryBucket[] =>
  rows.map((r) => ({ t: new Date(r[0] ?? 0).toISOString(), ...vitalsOf(r) }));

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
    // The partial minute at the end; none apart from the start's when the range holds no whole
    // minute (then `from` to `firstWhole` is all of it).
    tailFrom: iso(firstWhole > lastWhole ? firstWhole : lastWhole),
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
 * With `kept`, the rollups' finished buckets come from its cache when the device's history
 * version (read before this call, with the database's time) is the one they were read at.
 */
export async function deviceHistory(
  tx: Tx,
  deviceId: string,
  from: Date,
  to: Date,
  points: number,
  kept?: { cache: HistoryBucketCache; at: ReadAt },
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
  const read = async (fromMs: number) =>
    asBuckets(
      await bucketStatements[source](tx, {
        deviceId,
        from: iso(new Date(fromMs)),
        to: iso(to),
        minutes: bucketMinutes,
      }),
    );
  const buckets = kept
    ? await kept.cache.buckets(
        { deviceId, source, bucketMinutes },
        kept.at,
        from.getTime(),
        to.getTime(),
        read,
      )
    : await read(from.getTime());
  return { ...base, resolution: source, bucketSeconds: bucketMinutes * 60, buckets };
}
