import { NORMAL_RANGES } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import { rawRows } from '../../db/raw-rows.ts';
import { deviceSeqOf } from '../readings/service.ts';

/** The vitals a report covers (battery is the device's, not the wearer's). */
export const REPORT_VITALS = ['spo2', 'heart_rate', 'temperature'] as const;
export type ReportVital = (typeof REPORT_VITALS)[number];

const num = z.coerce.number().nullable();
const stats = Object.fromEntries(
  REPORT_VITALS.flatMap((v) => [
    [`${v}_min`, num],
    [`${v}_avg`, num],
    [`${v}_max`, num],
  ]),
) as Record<`${ReportVital}_${'min' | 'avg' | 'max'}`, typeof num>;
const dayRow = z.object({ day: z.string(), readings: z.coerce.number(), ...stats });
export type ReportDay = z.infer<typeof dayRow>;

const normalRow = z.object(
  Object.fromEntries(
    REPORT_VITALS.flatMap((v) => [
      [`${v}_n`, z.coerce.number()],
      [`${v}_ok`, z.coerce.number()],
    ]),
  ) as Record<`${ReportVital}_${'n' | 'ok'}`, z.ZodCoercedNumber>,
);

const alertRow = z.object({
  at: z.string(),
  alert_type: z.string(),
  priority: z.enum(['high', 'medium', 'low']),
  status: z.string(),
  alert_title: z.string(),
  acknowledged_by: z.string().nullable(),
  acknowledged_at: z.string().nullable(),
  resolved_at: z.string().nullable(),
});
export type ReportAlert = z.infer<typeof alertRow>;

/** Alerts listed in a report; a longer period's are counted and the newest listed. */
export const REPORT_ALERTS_MAX = 200;

export interface ReportData {
  days: ReportDay[];
  /** Share of readings inside the normal range, per vital (null: no reading of it). */
  inRange: Record<ReportVital, { readings: number; share: number | null }>;
  alerts: ReportAlert[];
  alertsTotal: number;
}

const RANGE_SQL: Record<ReportVital, string> = {
  spo2: `spo2 >= ${NORMAL_RANGES.spo2.min}`,
  heart_rate: `heart_rate between ${NORMAL_RANGES.heartRate.min} and ${NORMAL_RANGES.heartRate.max}`,
  temperature: `temperature between ${NORMAL_RANGES.temperature.min} and ${NORMAL_RANGES.temperature.max}`,
};

/**
 * What a report shows for a device and period: per-day min / average / max of each vital (from
 * the hour rollups, in `timeZone`'s days), the share of readings in the normal range (every
 * reading counted once, in one aggregate), and the alerts. Memory is bounded by the days and
 * REPORT_ALERTS_MAX, not by the readings.
 */
export async function reportData(
  db: Db,
  p: { deviceId: string; from: Date; to: Date; timeZone: string },
): Promise<ReportData> {
  const device = deviceSeqOf(p.deviceId);
  const from = p.from.toISOString();
  const to = p.to.toISOString();
  const dayStats = sql.raw(
    REPORT_VITALS.map(
      (v) =>
        `min(${v}_min) as ${v}_min, sum(${v}_sum) / nullif(sum(${v}_count), 0) as ${v}_avg, max(${v}_max) as ${v}_max`,
    ).join(', '),
  );
  const days = await rawRows(
    db,
    sql`select to_char(date_trunc('day', bucket at time zone ${p.timeZone}), 'YYYY-MM-DD') as day,
        sum(readings) as readings, ${dayStats}
      from health_rollups_hour
      where device_seq = ${device} and bucket >= ${from}::timestamptz and bucket <= ${to}::timestamptz
      group by 1 order by 1`,
    dayRow,
  );
  const counts = sql.raw(
    REPORT_VITALS.map(
      (v) => `count(${v}) as ${v}_n, count(*) filter (where ${RANGE_SQL[v]}) as ${v}_ok`,
    ).join(', '),
  );
  const [normal] = await rawRows(
    db,
    sql`select ${counts} from health_records
      where device_seq = ${device} and recorded_at >= ${from}::timestamptz and recorded_at <= ${to}::timestamptz`,
    normalRow,
  );
  const inRange = Object.fromEntries(
    REPORT_VITALS.map((v) => {
      const readings = normal?.[`${v}_n`] ?? 0;
      return [v, { readings, share: readings === 0 ? null : (normal?.[`${v}_ok`] ?? 0) / readings }];
    }),
  ) as ReportData['inRange'];
  const inPeriod = sql`device_id = ${p.deviceId} and recorded_at >= ${from}::timestamptz and recorded_at <= ${to}::timestamptz`;
  const alerts = await rawRows(
    db,
    sql`select recorded_at::text as at, alert_type, priority, status, alert_title,
        acknowledged_by_name as acknowledged_by, acknowledged_at::text as acknowledged_at, resolved_at::text as resolved_at
      from alerts where ${inPeriod} order by recorded_at desc, id desc limit ${REPORT_ALERTS_MAX}`,
    alertRow,
  );
  const [total] = await rawRows(
    db,
    sql`select count(*) as n from alerts where ${inPeriod}`,
    z.object({ n: z.coerce.number() }),
  );
  return { days, inRange, alerts, alertsTotal: total?.n ?? 0 };
}
