import { and, desc, eq, gte, lte } from 'drizzle-orm';
import { deviceSeqOf } from '../../db/device-seq.ts';
import type { Tx } from '../../db/index.ts';
import { healthRecords } from '../../db/schema.ts';

export type HealthRow = typeof healthRecords.$inferSelect & { deviceId: string };

export interface HealthQuery {
  from?: Date;
  to?: Date;
  limit: number;
}

/**
 * A device's readings, newest `recordedAt` first: the (device_seq, recorded_at) index read
 * backwards, newest partition first, stopping at `limit`.
 */
export const listReadings = async (tx: Tx, deviceId: string, q: HealthQuery): Promise<HealthRow[]> =>
  (
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
