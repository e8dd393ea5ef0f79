import { z } from 'zod';
import {
  HEALTH_FETCH_MAX_LIMIT,
  INGEST_BATCH_MAX,
  INGEST_EARLIEST_RECORDED_AT,
  INGEST_FUTURE_TOLERANCE_MS,
  PLAUSIBLE_RANGES,
} from '../constants.ts';
import { envelope, isoDate, rangeQueryFields, toNotBeforeFrom } from './common.ts';

export const HEALTH_MESSAGES = {
  fetched: 'Health data fetched successfully',
  historyFetched: 'Health history fetched successfully',
  notFound: 'Health data not found',
  accepted: 'Accepted',
  beforeRetention: (days: number) => `recordedAt is older than the ${days} days readings are kept`,
} as const;

const vital = (name: string, range: { min: number; max: number }, unit: string) => {
  const message = `${name} must be between ${range.min} and ${range.max}${unit}`;
  return z
    .number({ error: `${name} must be a number` })
    .finite(`${name} must be a number`)
    .min(range.min, message)
    .max(range.max, message);
};

/** Printable, no control characters: it is stored as text and echoed in logs. */
export const messageIdField = z
  .string({ error: 'messageId must be a string' })
  .min(1, 'messageId must not be empty')
  .max(100, 'messageId is too long (at most 100 characters)')
  .regex(/^[^\p{Cc}]+$/u, 'messageId must not contain control characters');

const earliest = Date.parse(INGEST_EARLIEST_RECORDED_AT);

/** When the device measured it: ISO 8601 with an offset, not before 2000, at most 5 minutes ahead. */
export const recordedAtField = isoDate
  .refine((v) => Date.parse(v) >= earliest, 'recordedAt is too far in the past (before 2000)')
  .refine(
    (v) => Date.parse(v) <= Date.now() + INGEST_FUTURE_TOLERANCE_MS,
    'recordedAt is more than 5 minutes in the future',
  );

/**
 * A body that is one item or a batch of 1..max items. Unlike `z.union`, a bad item reports its
 * own field issues (`heartRate`, `3.temperature`) instead of a bare "Invalid input".
 */
export function oneOrBatch<T extends z.ZodType>(item: T, what: string) {
  const batch = z
    .array(item)
    .min(1, 'Batch is empty')
    .max(INGEST_BATCH_MAX, `At most ${INGEST_BATCH_MAX} ${what} per request`);
  const parser = z.unknown().transform((value, ctx): z.output<T> | z.output<T>[] => {
    const result = Array.isArray(value) ? batch.safeParse(value) : item.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) {
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    }
    return z.NEVER;
  });
  documentedBodies.set(parser, z.xor([item, batch]));
  return parser;
}

/**
 * The shape a hand-parsed body accepts, by its parser: the API document shows this instead of
 * the parser (which reads as "anything").
 */
export const documentedBodies = new WeakMap<z.ZodType, z.ZodType>();

/** One reading from a device (HTTP body item or MQTT payload). Temperature in °F. */
export const healthReading = z
  .object({
    messageId: messageIdField.optional(),
    recordedAt: recordedAtField.optional(),
    spo2: vital('spo2', PLAUSIBLE_RANGES.spo2, '%').optional(),
    heartRate: vital('heartRate', PLAUSIBLE_RANGES.heartRate, ' BPM').optional(),
    temperature: vital('temperature', PLAUSIBLE_RANGES.temperature, ' °F').optional(),
    battery: vital('battery', PLAUSIBLE_RANGES.battery, '%').optional(),
  })
  .strict()
  .refine(
    (r) =>
      r.spo2 !== undefined ||
      r.heartRate !== undefined ||
      r.temperature !== undefined ||
      r.battery !== undefined,
    { message: 'A reading needs at least one of spo2, heartRate, temperature, battery' },
  );
export type HealthReading = z.infer<typeof healthReading>;

/** `POST /ingest/health` and MQTT `devices/<id>/health`: one reading or up to 500. */
export const healthIngestBody = oneOrBatch(healthReading, 'readings');

/** A stored health record as clients see it; `createdAt` is when it was recorded. */
export const healthRecord = z.object({
  _id: z.string(),
  device: z.string(),
  spo2: z.number().nullable(),
  heartRate: z.number().nullable(),
  temperature: z.number().nullable(),
  battery: z.number().nullable(),
  createdAt: z.string(),
});
export type HealthRecord = z.infer<typeof healthRecord>;

/** Optional: records recorded in [from, to], newest first, at most `limit` (default 100). */
export const healthFetchBody = z
  .object(rangeQueryFields(HEALTH_FETCH_MAX_LIMIT))
  .strict()
  .refine(...toNotBeforeFrom)
  .nullish();
export type HealthFetchBody = z.infer<typeof healthFetchBody>;
export const healthFetchResponse = envelope(z.object({ healthData: z.array(healthRecord) }));

export const ingestResult = envelope(z.object({ accepted: z.number().int(), duplicates: z.number().int() }));
export type IngestResult = z.infer<typeof ingestResult>['data'];

/** A history call returns at most this many buckets (its point budget), 500 when not given. */
export const HISTORY_POINTS_DEFAULT = 500;
export const HISTORY_POINTS_MAX = 2000;
/** The longest range one history call covers. */
export const HISTORY_MAX_RANGE_DAYS = 400;

/** `POST /health/history/:deviceId`: a range and a point budget; the server picks the resolution. */
export const healthHistoryBody = z
  .object({
    from: isoDate,
    to: isoDate,
    points: z.coerce
      .number({ error: 'points must be a number' })
      .int('points must be a whole number')
      .min(10, 'points must be at least 10')
      .max(HISTORY_POINTS_MAX, `points must be at most ${HISTORY_POINTS_MAX}`)
      .default(HISTORY_POINTS_DEFAULT),
  })
  .strict()
  .refine((b) => Date.parse(b.to) > Date.parse(b.from), { path: ['to'], message: 'to must be after from' })
  .refine((b) => Date.parse(b.to) - Date.parse(b.from) <= HISTORY_MAX_RANGE_DAYS * 86_400_000, {
    path: ['to'],
    message: `A range covers at most ${HISTORY_MAX_RANGE_DAYS} days`,
  });
export type HealthHistoryBody = z.infer<typeof healthHistoryBody>;

/** One vital over a bucket or a range; null when no reading in it had that vital. */
/**
 * One vital over a bucket or range: `[min, avg, max, count]`, or null when no reading had it. A
 * tuple rather than an object: a 90-day history carries hundreds of buckets of four vitals, and
 * the key names would be a third of its bytes.
 */
export const vitalStats = z.tuple([z.number(), z.number(), z.number(), z.number().int()]).nullable();
export type VitalStats = z.infer<typeof vitalStats>;

const historyVitals = {
  readings: z.number().int(),
  spo2: vitalStats,
  heartRate: vitalStats,
  temperature: vitalStats,
  battery: vitalStats,
};

/** A range's readings and each vital's `[min, avg, max, count]`, count-weighted, exactly. */
export const historySummary = z.object(historyVitals);
export type HistorySummary = z.infer<typeof historySummary>;

/** A bucket starting at `t` (for raw resolution: one reading, at its time). */
export const historyBucket = z.object({ t: z.string(), ...historyVitals });
export type HistoryBucket = z.infer<typeof historyBucket>;

/**
 * The range at the finest resolution that fits the budget (`historyResolution`): raw readings,
 * buckets of a whole number of minutes, or of hours (`bucketSeconds` their width). Buckets with
 * no reading are absent (a gap).
 * `summary` covers the whole range, count-weighted, exactly.
 */
export const healthHistoryResponse = envelope(
  z.object({
    resolution: z.enum(['raw', 'minute', 'hour']),
    bucketSeconds: z.number().int(),
    from: z.string(),
    to: z.string(),
    buckets: z.array(historyBucket),
    summary: historySummary,
  }),
);
export type HealthHistory = z.infer<typeof healthHistoryResponse>['data'];
