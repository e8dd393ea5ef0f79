import { type AnyPgColumn, doublePrecision, integer, real, timestamp } from 'drizzle-orm/pg-core';

/** A timestamp with time zone, read as a Date: every time column of the schema. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Per vital: how many readings had it, their sum, min and max (the mean is sum / count). Grouped by
 * type rather than by vital, so no column waits for alignment padding.
 */
export const rollupColumns = (deviceSeq: () => AnyPgColumn) => ({
  /** Start of the bucket (UTC minute or hour). */
  bucket: ts('bucket').notNull(),
  deviceSeq: integer('device_seq').notNull().references(deviceSeq, { onDelete: 'cascade' }),
  readings: integer('readings').notNull(),
  spo2Sum: doublePrecision('spo2_sum').notNull().default(0),
  heartRateSum: doublePrecision('heart_rate_sum').notNull().default(0),
  temperatureSum: doublePrecision('temperature_sum').notNull().default(0),
  batterySum: doublePrecision('battery_sum').notNull().default(0),
  spo2Count: integer('spo2_count').notNull().default(0),
  heartRateCount: integer('heart_rate_count').notNull().default(0),
  temperatureCount: integer('temperature_count').notNull().default(0),
  batteryCount: integer('battery_count').notNull().default(0),
  spo2Min: real('spo2_min'),
  spo2Max: real('spo2_max'),
  heartRateMin: real('heart_rate_min'),
  heartRateMax: real('heart_rate_max'),
  temperatureMin: real('temperature_min'),
  temperatureMax: real('temperature_max'),
  batteryMin: real('battery_min'),
  batteryMax: real('battery_max'),
});
