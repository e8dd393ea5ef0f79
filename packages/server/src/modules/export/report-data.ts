import { NORMAL_RANGES } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { deviceSeqOf } from '../../db/device-seq.ts';
import type { Db } from '../../db/index.ts';
import { rawRows } from '../../db/raw-rows.ts';
import {
  REPORT_VITALS,
  type ReportDay,
  type ReportPeriod,
  type ReportVital,
  reportDays,
} from './report-days.ts';

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

/**
 * `column` inside the normal range, inclusive. The limits are compared as `real`, the type the
 * readings are stored in: next to a numeric literal PostgreSQL widens both to double precision,
 * and a stored 98.4 (98.40000153 as a double) would then fall outside the 98.4 °F limit.
 */
function inRangeSql(column: ReportVital, range: { min: number; max: number }): string {
  const min = `${column} >= ${range.min}::real`;
  return Number.isFinite(range.max) ? `${min} and ${column} <= ${range.max}::real` : min;
}
const RANGE_SQL: Record<ReportVital, string> = {
  spo2: inRangeSql('spo2', NORMAL_RANGES.spo2),
  heart_rate: inRangeSql('heart_rate', NORMAL_RANGES.heartRate),
  temperature: inRangeSql('temperature', NORMAL_RANGES.temperature),
};

/**
 * What a report shows for a device and period (from `from` up to, not including, `to`): each day
 * of the period in `timeZone` with its min / average / max of each vital (reportDays), the share of
 * readings in the normal range (every reading counted once, in one aggregate), and the alerts.
 * Memory is bounded by the days and REPORT_ALERTS_MAX, not by the readings.
 */
export async function reportData(db: Db, p: ReportPeriod): Promise<ReportData> {
  const device = deviceSeqOf(p.deviceId);
  const from = p.from.toISOString();
  const to = p.to.toISOString();
  const days = await reportDays(db, p);
  const counts = sql.raw(
    REPORT_VITALS.map(
      (v) => `count(${v}) as ${v}_n, count(*) filter (where ${RANGE_SQL[v]}) as ${v}_ok`,
    ).join(', '),
  );
  const [normal] = await rawRows(
    db,
    sql`select ${counts} from health_records
      where device_seq = ${device} and recorded_at >= ${from}::timestamptz and recorded_at < ${to}::timestamptz`,
    normalRow,
  );
  const inRange = Object.fromEntries(
    REPORT_VITALS.map((v) => {
      const readings = normal?.[`${v}_n`] ?? 0;
      return [v, { readings, share: readings === 0 ? null : (normal?.[`${v}_ok`] ?? 0) / readings }];
    }),
  ) as ReportData['inRange'];
  const inPeriod = sql`device_id = ${p.deviceId} and recorded_at >= ${from}::timestamptz and recorded_at < ${to}::timestamptz`;
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
