import type { HealthRecord } from '@vitalwatch/shared';

/** The chart's period choices (beyond the spec): each asks the server for `{from, to}`. */
export const HEALTH_RANGES = [
  { id: 'hour', label: 'Last hour', ms: 60 * 60_000 },
  { id: 'day', label: 'Last 24 hours', ms: 24 * 60 * 60_000 },
  { id: 'week', label: 'Last 7 days', ms: 7 * 24 * 60 * 60_000 },
  { id: 'month', label: 'Last 30 days', ms: 30 * 24 * 60 * 60_000 },
  // A window the user picks (its own from and to).
  { id: 'custom', label: 'Custom', ms: 0 },
] as const;
export type HealthRangeId = (typeof HEALTH_RANGES)[number]['id'];
export const DEFAULT_HEALTH_RANGE: HealthRangeId = 'day';

export const rangeMs = (id: HealthRangeId): number => HEALTH_RANGES.find((r) => r.id === id)?.ms ?? 0;

const time = (r: HealthRecord) => Date.parse(r.createdAt);

/**
 * `record` added to a newest-first list at its place by `createdAt` (a late reading may be older
 * than what is shown), replacing a record with the same id, keeping at most `max` newest.
 */
export function insertRecord(
  records: readonly HealthRecord[],
  record: HealthRecord,
  max: number,
): HealthRecord[] {
  const rest = records.filter((r) => r._id !== record._id);
  const at = rest.findIndex((r) => time(r) < time(record));
  const next = at === -1 ? [...rest, record] : [...rest.slice(0, at), record, ...rest.slice(at)];
  return next.slice(0, max);
}

/** The newer of two records (by `createdAt`); the spec's "latest" is the newest recording, not the last arrival. */
export const newerRecord = (a: HealthRecord | null, b: HealthRecord): HealthRecord =>
  a && time(a) >= time(b) ? a : b;
