import { DEFAULT_HEALTH_RANGE, type HealthRangeId, rangeMs } from './records.ts';

export interface OpeningFacts {
  /** The device's newest reading (the server's `lastUpdate`), or null when it never sent one. */
  newest: number | null;
  /**
   * Whether the server holds readings older than an hour (null: not asked yet). Only asked when
   * the newest reading is within the hour.
   */
  olderThanHour: boolean | null;
  now: number;
}

/**
 * The period the chart opens on: the shortest offered range that holds the device's readings. A
 * device sending for a minute opens on the last hour (not a 24-hour axis with a dot at its end);
 * one that has been sending longer opens on the last 24 hours, the usual view; one silent for
 * longer than that opens on the shortest range that still shows its last readings. Null while
 * the server has not yet said whether there is anything older than an hour.
 */
export function openingRange({ newest, olderThanHour, now }: OpeningFacts): HealthRangeId | null {
  if (newest === null) return DEFAULT_HEALTH_RANGE;
  const age = now - newest;
  if (age <= rangeMs('hour')) {
    if (olderThanHour === null) return null;
    return olderThanHour ? DEFAULT_HEALTH_RANGE : 'hour';
  }
  if (age <= rangeMs('day')) return 'day';
  return age <= rangeMs('week') ? 'week' : 'month';
}

/** Whether `openingRange` needs to know of readings older than an hour. */
export const needsOlderThanHour = (newest: number | null, now: number): boolean =>
  newest !== null && now - newest <= rangeMs('hour');
