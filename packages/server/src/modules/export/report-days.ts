import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { deviceSeqOf } from '../../db/device-seq.ts';
import type { Db } from '../../db/index.ts';
import { rawRows } from '../../db/raw-rows.ts';

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
/** One calendar day of the report's time zone: its readings and each vital's lowest / average / highest. */
export type ReportDay = z.infer<typeof dayRow>;

/** A report's period: from `from` up to, not including, `to`; days are `timeZone`'s. */
export interface ReportPeriod {
  deviceId: string;
  from: Date;
  to: Date;
  timeZone: string;
}

const HOUR_MS = 3_600_000;
/** The calendar day (YYYY-MM-DD) of an instant in a time zone. */
export const dayIn = (instant: Date, timeZone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );

/** The period's days: the day of `from` to the day of its last instant, each once. */
export function periodDays(p: Pick<ReportPeriod, 'from' | 'to' | 'timeZone'>): string[] {
  const first = dayIn(p.from, p.timeZone);
  const last = dayIn(new Date(p.to.getTime() - 1), p.timeZone);
  const days: string[] = [];
  for (let day = new Date(`${first}T00:00:00Z`); ; day.setUTCDate(day.getUTCDate() + 1)) {
    const iso = day.toISOString().slice(0, 10);
    if (iso > last) return days;
    days.push(iso);
  }
}

/**
 * Each day of the period, with the readings in it exactly: the summary's readings, split by day.
 * Whole UTC hours inside the period come from the hour rollups; an hour that a day boundary cuts
 * (zones half or three quarters of an hour off UTC) from its minute rollups; the part of the period
 * before its first whole hour and after its last from the readings themselves (two hours at most).
 * Days without readings are listed too, with no figures.
 */
export async function reportDays(db: Db, p: ReportPeriod): Promise<ReportDay[]> {
  const device = deviceSeqOf(p.deviceId);
  const from = p.from.getTime();
  const to = p.to.getTime();
  const firstHour = Math.ceil(from / HOUR_MS) * HOUR_MS;
  const lastHour = Math.floor(to / HOUR_MS) * HOUR_MS;
  // Whole hours in [hoursFrom, hoursTo); readings outside them. No whole hour: readings only.
  const [hoursFrom, hoursTo] = (firstHour < lastHour ? [firstHour, lastHour] : [to, to]).map((ms) =>
    new Date(ms).toISOString(),
  );
  const tz = p.timeZone;
  const dayOf = (column: string) => sql`to_char(${sql.raw(column)} at time zone ${tz}, 'YYYY-MM-DD')`;
  // An hour is whole in one day when its first and last minute fall on the same date there.
  const oneDay = (column: string) =>
    sql`(${sql.raw(column)} at time zone ${tz})::date = ((${sql.raw(column)} + interval '59 minutes') at time zone ${tz})::date`;
  const rollupColumns = (table: string) =>
    sql.raw(
      REPORT_VITALS.map(
        (v) => `${table}.${v}_min, ${table}.${v}_sum, ${table}.${v}_count, ${table}.${v}_max`,
      ).join(', '),
    );
  const readingColumns = sql.raw(
    REPORT_VITALS.map(
      (v) =>
        `${v} as ${v}_min, ${v}::float8 as ${v}_sum, (${v} is not null)::int as ${v}_count, ${v} as ${v}_max`,
    ).join(', '),
  );
  const dayStats = sql.raw(
    REPORT_VITALS.map(
      (v) =>
        `min(${v}_min) as ${v}_min, sum(${v}_sum) / nullif(sum(${v}_count), 0) as ${v}_avg, max(${v}_max) as ${v}_max`,
    ).join(', '),
  );
  const rows = await rawRows(
    db,
    sql`select day, sum(readings) as readings, ${dayStats} from (
        select ${dayOf('h.bucket')} as day, h.readings, ${rollupColumns('h')}
          from health_rollups_hour h
          where h.device_seq = ${device} and h.bucket >= ${hoursFrom}::timestamptz and h.bucket < ${hoursTo}::timestamptz
            and ${oneDay('h.bucket')}
        union all
        select ${dayOf('m.bucket')}, m.readings, ${rollupColumns('m')}
          from health_rollups_hour h
          join health_rollups_minute m
            on m.device_seq = h.device_seq and m.bucket >= h.bucket and m.bucket < h.bucket + interval '1 hour'
          where h.device_seq = ${device} and h.bucket >= ${hoursFrom}::timestamptz and h.bucket < ${hoursTo}::timestamptz
            and not ${oneDay('h.bucket')}
        union all
        select ${dayOf('recorded_at')}, 1, ${readingColumns}
          from health_records
          where device_seq = ${device}
            and (recorded_at >= ${p.from.toISOString()}::timestamptz and recorded_at < ${hoursFrom}::timestamptz
              or recorded_at >= ${hoursTo}::timestamptz and recorded_at < ${p.to.toISOString()}::timestamptz)
      ) as parts
      group by day`,
    dayRow,
  );
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return periodDays(p).map((day) => byDay.get(day) ?? emptyDay(day));
}

const emptyDay = (day: string): ReportDay => ({
  day,
  readings: 0,
  ...(Object.fromEntries(
    REPORT_VITALS.flatMap((v) => [`${v}_min`, `${v}_avg`, `${v}_max`].map((k) => [k, null])),
  ) as Omit<ReportDay, 'day' | 'readings'>),
});
