import { z } from 'zod';
import { isKnownTimeZone } from '../rules/quiet-hours.ts';
import type { TemperatureUnit } from '../rules/units.ts';
import { isoDate } from './common.ts';

/** The longest period one export covers (a report for the doctor spans up to three months). */
export const EXPORT_MAX_RANGE_DAYS = 90;
export const EXPORT_RESOLUTIONS = ['raw', 'minute', 'hour'] as const;
export type ExportResolution = (typeof EXPORT_RESOLUTIONS)[number];

const period = {
  from: isoDate,
  to: isoDate,
};
const checkPeriod = <T extends { from: string; to: string }>(schema: z.ZodType<T>) =>
  schema
    .refine((q) => Date.parse(q.to) > Date.parse(q.from), { path: ['to'], message: 'to must be after from' })
    .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= EXPORT_MAX_RANGE_DAYS * 86_400_000, {
      path: ['to'],
      message: `An export covers at most ${EXPORT_MAX_RANGE_DAYS} days`,
    });

/** `GET /api/v1/export/readings/:deviceId`: every reading, or minute or hour rollups, as CSV. */
export const readingsExportQuery = checkPeriod(
  z
    .object({
      ...period,
      resolution: z
        .enum(EXPORT_RESOLUTIONS, { error: 'resolution must be raw, minute or hour' })
        .default('raw'),
    })
    .strict(),
);
export type ReadingsExportQuery = z.infer<typeof readingsExportQuery>;

/** `GET /api/v1/export/report/:deviceId`: the PDF report; days are counted in `timeZone` (IANA, default UTC). */
export const reportQuery = checkPeriod(
  z
    .object({
      ...period,
      timeZone: z
        .string()
        .max(64)
        .refine(isKnownTimeZone, 'timeZone must be an IANA time zone such as Europe/Paris')
        .default('UTC'),
    })
    .strict(),
);

/** `GET /api/v1/export/alerts/:deviceId`: the device's alerts of a period as CSV. */
export const alertsExportQuery = checkPeriod(z.object(period).strict());
export type AlertsExportQuery = z.infer<typeof alertsExportQuery>;

const vitalColumns = (unit: TemperatureUnit) =>
  ['spo2_percent', 'heart_rate_bpm', `temperature_${unit.toLowerCase()}`, 'battery_percent'] as const;

/** Column headers: units in the names (temperature in the user's unit), so a spreadsheet needs no legend. */
export const readingsCsvHeader = (unit: TemperatureUnit): string[] => ['recorded_at', ...vitalColumns(unit)];
export const rollupCsvHeader = (unit: TemperatureUnit): string[] => [
  'bucket_start',
  'readings',
  ...vitalColumns(unit).flatMap((v) => [`${v}_min`, `${v}_avg`, `${v}_max`, `${v}_count`]),
];
export const ALERTS_CSV_HEADER = [
  'recorded_at',
  'received_at',
  'type',
  'priority',
  'status',
  'title',
  'message',
  'acknowledged_at',
  'acknowledged_by',
  'resolved_at',
  'resolved_by',
] as const;
