import { and, desc, eq, gte, lte, type SQLWrapper, sql } from 'drizzle-orm';
import { z } from 'zod';
import { maySee } from '../../access/audience.ts';
import { deviceSeqOf } from '../../db/device-seq.ts';
import type { Tx } from '../../db/index.ts';
import { perLimitTier, writtenLimit } from '../../db/once-for.ts';
import { quickUpTo } from '../../db/pipelined-reads.ts';
import { preparedRows } from '../../db/raw-rows.ts';
import { devices, healthRecords } from '../../db/schema.ts';
import { isUuid } from '../../lib/ids.ts';
import type { ReadingFacts } from './presenter.ts';

export interface HealthQuery {
  from?: Date;
  to?: Date;
  limit: number;
}

const readingRow = z.object({
  id: z.string(),
  recorded_at: z.coerce.date(),
  spo2: z.number().nullable(),
  heart_rate: z.number().nullable(),
  temperature: z.number().nullable(),
  battery: z.number().nullable(),
});
const newestOf = (seq: SQLWrapper, tier: number) =>
  sql`select id::text, recorded_at, spo2, heart_rate, temperature, battery from ${healthRecords}
    where device_seq = ${seq} order by recorded_at desc, id desc limit ${writtenLimit(tier)}`;

const newestReadings = perLimitTier((tier) =>
  preparedRows(
    `newest_readings_${tier}`,
    newestOf(deviceSeqOf(sql.placeholder('deviceId')), tier),
    readingRow,
  ),
);

/**
 * The newest readings of a device the user may see (`maySee`) in one statement: no row when they
 * may not, one row of nulls when it has no reading. A dashboard's cards ask it on every visit: the
 * access check and the read were two round trips and two statements before.
 */
const newestVisibleReadings = perLimitTier((tier) =>
  preparedRows(
    quickUpTo(`newest_visible_readings_${tier}`, tier),
    sql`select r.* from ${devices} d
      left join lateral (${newestOf(sql`d.seq`, tier)}) r on true
      where d.id = ${sql.placeholder('deviceId')}::uuid and ${maySee(sql.placeholder('userId'), sql`d.id`)}
      order by r.recorded_at desc, r.id desc`,
    readingRow.extend({ id: z.string().nullable(), recorded_at: z.coerce.date().nullable() }),
  ),
);

const facts = (deviceId: string, r: z.infer<typeof readingRow>): ReadingFacts => ({
  id: r.id,
  deviceId,
  recordedAt: r.recorded_at,
  spo2: r.spo2,
  heartRate: r.heart_rate,
  temperature: r.temperature,
  battery: r.battery,
});

/**
 * The newest `limit` readings of a device the user may see, newest first; undefined when they
 * may not see it (someone else's, unknown, not an id).
 */
export async function newestVisible(
  tx: Tx,
  userId: string,
  deviceId: string,
  limit: number,
): Promise<ReadingFacts[] | undefined> {
  if (!isUuid(deviceId)) return undefined;
  const rows = await newestVisibleReadings(limit)(tx, { deviceId, userId });
  if (rows.length === 0) return undefined;
  const readings: ReadingFacts[] = [];
  for (const { id, recorded_at, ...vitals } of rows.slice(0, limit)) {
    if (id !== null && recorded_at !== null) readings.push(facts(deviceId, { id, recorded_at, ...vitals }));
  }
  return readings;
}

/**
 * A device's readings, newest `recordedAt` first: the (device_seq, recorded_at) index read
 * backwards, newest partition first, stopping at `limit`. Without a range (the newest readings a
 * dashboard asks for on every visit) a prepared statement, one per `limitTier`.
 */
export const listReadings = async (tx: Tx, deviceId: string, q: HealthQuery): Promise<ReadingFacts[]> => {
  if (!q.from && !q.to) {
    const rows = (await newestReadings(q.limit)(tx, { deviceId })).slice(0, q.limit);
    return rows.map((r) => facts(deviceId, r));
  }
  return (
    await tx
      .select()
      .from(healthRecords)
      .where(
        and(
          eq(healthRecords.deviceSeq, deviceSeqOf(deviceId)),
          q.from ? gte(healthRecords.recordedAt, q.from) : undefined,
          q.to ? lte(healthRecords.recordedAt, q.to) : undefined,
        ),
      )
      .orderBy(desc(healthRecords.recordedAt), desc(healthRecords.id))
      .limit(q.limit)
  ).map((r) => ({ ...r, deviceId }));
};
