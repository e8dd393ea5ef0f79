import { and, desc, eq, gte, lte } from 'drizzle-orm';
import type { Tx } from '../../db/index.ts';
import { healthRecords } from '../../db/schema.ts';

export type HealthRow = typeof healthRecords.$inferSelect;

export interface HealthQuery {
  from?: Date;
  to?: Date;
  limit: number;
}

/** A device's readings, newest `recordedAt` first (the (device_id, recorded_at desc) index). */
export const listReadings = async (tx: Tx, deviceId: string, q: HealthQuery): Promise<HealthRow[]> =>
  tx
    .select()
    .from(healthRecords)
    .where(
      and(
        eq(healthRecords.deviceId, deviceId),
        q.from ? gte(healthRecords.recordedAt, q.from) : undefined,
        q.to ? lte(healthRecords.recordedAt, q.to) : undefined,
      ),
    )
    .orderBy(desc(healthRecords.recordedAt), desc(healthRecords.id))
    .limit(q.limit);
