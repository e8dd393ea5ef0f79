import { type ExportResolution, type TemperatureUnit, temperatureIn } from '@vitalwatch/shared';
import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { deviceSeqOf } from '../../db/device-seq.ts';
import type { Db } from '../../db/index.ts';
import { rawRows } from '../../db/raw-rows.ts';
import { pages } from '../../lib/pages.ts';
import { ROLLUP_VITALS } from '../readings/service.ts';

/** Rows per query: memory stays bounded by one page whatever the period (7.8 M rows for 90 days at 1 Hz). */
export const EXPORT_PAGE_ROWS = 5_000;

/** An instant as ISO 8601 in UTC with milliseconds, written by the database. */
const isoUtc = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const text = z.string().nullable();

export interface Period {
  deviceId: string;
  from: Date;
  to: Date;
  pageRows?: number;
}

/** `cursor` is the full-precision timestamptz text: the ISO `at` has milliseconds only. */
const rawRow = z.object({
  id: z.string(),
  cursor: z.string(),
  at: z.string(),
  spo2: text,
  heart_rate: text,
  temperature: text,
  battery: text,
});
/** One stored reading: values as the database writes them (`97.5`, not `97.5000001`). */
export type StoredReading = z.infer<typeof rawRow>;
/** Where a page of readings starts: after this reading. */
export type ReadingCursor = Pick<StoredReading, 'cursor' | 'id'>;

/** Up to `limit` readings of the device in the period after `after` (null: from the start), oldest first. */
export function readingPage(
  db: Db,
  p: Period,
  after: ReadingCursor | null,
  limit: number,
): Promise<StoredReading[]> {
  return rawRows(
    db,
    sql`select id::text as id, recorded_at::text as cursor, ${sql.raw(isoUtc('recorded_at'))} as at,
        spo2::text as spo2, heart_rate::text as heart_rate, temperature::text as temperature, battery::text as battery
      from health_records
      where device_seq = ${deviceSeqOf(p.deviceId)}
        and recorded_at >= ${p.from.toISOString()}::timestamptz and recorded_at <= ${p.to.toISOString()}::timestamptz
        ${after ? sql`and (recorded_at, id) > (${after.cursor}::timestamptz, ${after.id}::bigint)` : sql``}
      order by recorded_at, id
      limit ${limit}`,
    rawRow,
  );
}

/** Every reading of the device in the period, a page at a time, oldest first. */
export function readingPages(db: Db, p: Period): AsyncGenerator<StoredReading[]> {
  const pageRows = p.pageRows ?? EXPORT_PAGE_ROWS;
  return pages<StoredReading>((after) => readingPage(db, p, after, pageRows), pageRows);
}

/** A stored °F temperature (text) in `unit`: as stored for °F. */
const temperatureText = (value: string | null | undefined, unit: TemperatureUnit) =>
  value == null || unit === 'F' ? value : String(temperatureIn(Number(value), unit));

/**
 * Every reading of the device in the period, oldest first: `[recorded_at, spo2, heart rate,
 * temperature, battery]`, the temperature in `unit` (stored °F by default).
 */
export async function* readingLines(
  db: Db,
  p: Period & { resolution: ExportResolution; unit?: TemperatureUnit },
) {
  const unit = p.unit ?? 'F';
  if (p.resolution !== 'raw') {
    yield* rollupLines(db, p, p.resolution, unit);
    return;
  }
  for await (const rows of readingPages(db, p))
    yield rows.map((r) => [r.at, r.spo2, r.heart_rate, temperatureText(r.temperature, unit), r.battery]);
}

const rollupRow = z
  .object({ cursor: z.string(), at: z.string(), readings: z.coerce.string() })
  .catchall(text);

/** Minute or hour rollups: bucket start, readings, then min / avg / max / count of each vital. */
async function* rollupLines(db: Db, p: Period, resolution: 'minute' | 'hour', unit: TemperatureUnit) {
  const pageRows = p.pageRows ?? EXPORT_PAGE_ROWS;
  const table = sql.raw(`health_rollups_${resolution}`);
  const columns = sql.raw(
    ROLLUP_VITALS.map(
      (v) =>
        `${v}_min::text as ${v}_min, round((${v}_sum / nullif(${v}_count, 0))::numeric, 2)::text as ${v}_avg, ` +
        `${v}_max::text as ${v}_max, ${v}_count::text as ${v}_count`,
    ).join(', '),
  );
  const device = deviceSeqOf(p.deviceId);
  const bucketFrom = (after: z.infer<typeof rollupRow> | null): SQL =>
    after ? sql`and bucket > ${after.cursor}::timestamptz` : sql``;
  for await (const rows of pages<z.infer<typeof rollupRow>>(
    (after) =>
      rawRows(
        db,
        sql`select bucket::text as cursor, ${sql.raw(isoUtc('bucket'))} as at, readings, ${columns}
          from ${table}
          where device_seq = ${device}
            and bucket >= ${p.from.toISOString()}::timestamptz and bucket <= ${p.to.toISOString()}::timestamptz
            ${bucketFrom(after)}
          order by bucket
          limit ${pageRows}`,
        rollupRow,
      ),
    pageRows,
  ))
    yield rows.map((r) => [
      r.at,
      r.readings,
      ...ROLLUP_VITALS.flatMap((v) => {
        const shown = (value: string | null | undefined) =>
          v === 'temperature' ? temperatureText(value, unit) : value;
        return [shown(r[`${v}_min`]), shown(r[`${v}_avg`]), shown(r[`${v}_max`]), r[`${v}_count`]];
      }),
    ]);
}

const alertRow = z.object({
  id: z.string(),
  cursor: z.string(),
  at: z.string(),
  received: text,
  alert_type: z.string(),
  priority: z.string(),
  status: z.string(),
  alert_title: z.string(),
  alert_message: z.string(),
  acknowledged_at: text,
  acknowledged_by: text,
  resolved_at: text,
  resolved_by: text,
});

/** The device's alerts raised in the period (device time), oldest first. */
export async function* alertLines(db: Db, p: Period) {
  const pageRows = p.pageRows ?? EXPORT_PAGE_ROWS;
  for await (const rows of pages<z.infer<typeof alertRow>>(
    (after) =>
      rawRows(
        db,
        sql`select id::text as id, recorded_at::text as cursor, ${sql.raw(isoUtc('recorded_at'))} as at,
            ${sql.raw(isoUtc('created_at'))} as received,
            alert_type, priority, status, alert_title, alert_message,
            ${sql.raw(isoUtc('acknowledged_at'))} as acknowledged_at, acknowledged_by_name as acknowledged_by,
            ${sql.raw(isoUtc('resolved_at'))} as resolved_at, resolved_by_name as resolved_by
          from alerts
          where device_id = ${p.deviceId}
            and recorded_at >= ${p.from.toISOString()}::timestamptz and recorded_at <= ${p.to.toISOString()}::timestamptz
            ${after ? sql`and (recorded_at, id) > (${after.cursor}::timestamptz, ${after.id}::uuid)` : sql``}
          order by recorded_at, id
          limit ${pageRows}`,
        alertRow,
      ),
    pageRows,
  ))
    yield rows.map((r) => [
      r.at,
      r.received,
      r.alert_type,
      r.priority,
      r.status,
      r.alert_title,
      r.alert_message,
      r.acknowledged_at,
      r.acknowledged_by,
      r.resolved_at,
      r.resolved_by,
    ]);
}
