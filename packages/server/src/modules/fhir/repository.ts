import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { deviceSeqOf } from '../../db/device-seq.ts';
import type { Tx } from '../../db/index.ts';
import { rawRows } from '../../db/raw-rows.ts';
import { isoMicros } from './dates.ts';
import { type ObservationKey, VITAL_SUFFIXES } from './observation-id.ts';

/** One vital of one stored reading: what an Observation is made of. */
export interface VitalRow {
  key: ObservationKey;
  /** recorded_at as ISO 8601 in UTC with milliseconds. */
  effective: string;
  /** As stored (temperature in °F). */
  value: number;
}

/** A period of finite bounds, [from, to) in microseconds, and the ranges inside it that match. */
export interface ObservationPeriod {
  deviceId: string;
  from: bigint;
  to: bigint;
  /** More than one when a search asked for several ranges (`ne`, commas). */
  ranges: { from: bigint; to: bigint }[];
}

const row = z.object({
  reading_id: z.string(),
  at_us: z.string(),
  at: z.string(),
  ord: z.coerce.number().int().min(1).max(VITAL_SUFFIXES.length),
  value: z.coerce.number(),
});

const instant = (us: bigint) => sql`${isoMicros(us)}::timestamptz`;

/**
 * The vitals of a device's readings as rows, one per Observation, ordered by (recorded_at,
 * reading id, vital): a reading with three vitals is three rows.
 */
function vitalRows(tx: Tx, deviceId: string, where: SQL, limit: number): Promise<VitalRow[]> {
  return rawRows(
    tx,
    sql`select h.id::text as reading_id, (extract(epoch from h.recorded_at) * 1000000)::bigint::text as at_us,
        to_char(h.recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, v.ord, v.value::text as value
      from health_records h
      cross join lateral (values (1, h.spo2), (2, h.heart_rate), (3, h.temperature)) as v(ord, value)
      where h.device_seq = ${deviceSeqOf(deviceId)} and v.value is not null and ${where}
      order by h.recorded_at, h.id, v.ord
      limit ${limit}`,
    row,
  ).then((rows) =>
    rows.map((r) => ({
      key: {
        deviceId,
        at: BigInt(r.at_us),
        readingId: BigInt(r.reading_id),
        vital: VITAL_SUFFIXES[r.ord - 1]!,
      },
      effective: r.at,
      value: r.value,
    })),
  );
}

/** Up to `limit` Observations of the period after the one `after` names (null: from the start). */
export function observationPage(
  tx: Tx,
  p: ObservationPeriod,
  after: ObservationKey | null,
  limit: number,
): Promise<VitalRow[]> {
  const ranges =
    p.ranges.length > 1
      ? sql`and (${sql.join(
          p.ranges.map(
            (r) => sql`(h.recorded_at >= ${instant(r.from)} and h.recorded_at < ${instant(r.to)})`,
          ),
          sql` or `,
        )})`
      : sql``;
  const start = after
    ? sql`and h.recorded_at >= ${instant(after.at)}
        and (h.recorded_at, h.id, v.ord) > (${instant(after.at)}, ${String(after.readingId)}::bigint, ${VITAL_SUFFIXES.indexOf(after.vital) + 1}::int)`
    : sql``;
  return vitalRows(
    tx,
    p.deviceId,
    sql`h.recorded_at >= ${instant(p.from)} and h.recorded_at < ${instant(p.to)} ${ranges} ${start}`,
    limit,
  );
}

/** Every Observation of the period, a page at a time, in order. */
export async function* observationPages(tx: Tx, p: ObservationPeriod, pageRows: number) {
  let after: ObservationKey | null = null;
  for (;;) {
    const rows = await observationPage(tx, p, after, pageRows);
    if (rows.length > 0) yield rows;
    if (rows.length < pageRows) return;
    after = rows.at(-1)!.key;
  }
}

/** The Observation the key names, if its reading is stored and carries that vital. */
export async function findObservation(tx: Tx, key: ObservationKey): Promise<VitalRow | undefined> {
  const [found] = await vitalRows(
    tx,
    key.deviceId,
    sql`h.recorded_at = ${instant(key.at)} and h.id = ${String(key.readingId)}::bigint
      and v.ord = ${VITAL_SUFFIXES.indexOf(key.vital) + 1}`,
    1,
  );
  return found;
}
