import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import { deviceSeqOf } from '../../db/device-seq.ts';
import type { Tx } from '../../db/index.ts';
import { perLimitTier } from '../../db/once-for.ts';
import { preparedRows } from '../../db/raw-rows.ts';
import { healthRecords } from '../../db/schema.ts';
import type { ReadingFacts } from './presenter.ts';

export interface HealthQuery {
  from?: Date;
  to?: Date;
  limit: number;
}

const newestReadings = perLimitTier((tier) =>
  preparedRows(
    `newest_readings_${tier}`,
    sql`select id::text, recorded_at, spo2, heart_rate, temperature, battery from ${healthRecords}
      where device_seq = ${deviceSeqOf(sql.placeholder('deviceId'))}
      order by recorded_at desc, id desc limit ${sql.raw(String(tier))}`,
    z.object({
      id: z.string(),
      recorded_at: z.coerce.date(),
      spo2: z.number().nullable(),
      heart_rate: z.number().nullable(),
      temperature: z.number().nullable(),
      battery: z.number().nullable(),
    }),
  ),
);

/**
 * A device's readings, newest `recordedAt` first: the (device_seq, recorded_at) index read
 * backwards, newest partition first, stopping at `limit`. Without a range (the newest readings a
 * dashboard asks for on every visit) a prepared statement, one per `limitTier`.
 */
export const listReadings = async (tx: Tx, deviceId: string, q: HealthQuery): Promise<ReadingFacts[]> => {
  if (!q.from && !q.to) {
    const rows = (await newestReadings(q.limit)(tx, { deviceId })).slice(0, q.limit);
    return rows.map((r) => ({
      id: r.id,
      deviceId,
      recordedAt: r.recorded_at,
      spo2: r.spo2,
      heartRate: r.heart_rate,
      temperature: r.temperature,
      battery: r.battery,
    }));
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
