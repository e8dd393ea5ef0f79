/** Where a history's buckets come from: each reading, or the minute or hour rollups. */
export type HistorySource = 'raw' | 'minute' | 'hour';

export interface HistoryResolution {
  /** The table read: raw readings, minute rollups, or hour rollups. */
  source: HistorySource;
  /** Width of a bucket in minutes (0 for raw readings, a multiple of 60 from hour rollups). */
  bucketMinutes: number;
}

const MINUTE_MS = 60_000;

/**
 * The narrowest whole number of `unit` minutes whose buckets over a window of `windowMinutes`
 * fit in `points`. Buckets are aligned to a fixed origin, not to the window's start, so a window
 * touches up to ceil(window / width) + 1 of them: the width must be at least window / (points - 1).
 */
const narrowestFitting = (windowMinutes: number, points: number, unit: number) =>
  Math.max(1, Math.ceil(windowMinutes / unit / Math.max(1, points - 1))) * unit;

/**
 * The resolution of a device's history over [fromMs, toMs] within a budget of `points` buckets,
 * the finest that fits: every reading when the window holds no more than `points` of them;
 * otherwise n-minute buckets from the minute rollups, n as small as fits (a 24 h window of a
 * 1 Hz device at 500 points: 3-minute buckets, 480 of them); once even a bucket of 59 minutes is
 * too narrow, whole hours from the hour rollups (cheaper to read than a month of minutes).
 */
export function historyResolution(
  fromMs: number,
  toMs: number,
  points: number,
  readings: number,
): HistoryResolution {
  if (readings <= points) return { source: 'raw', bucketMinutes: 0 };
  const windowMinutes = Math.max(0, toMs - fromMs) / MINUTE_MS;
  const minutes = narrowestFitting(windowMinutes, points, 1);
  if (minutes < 60) return { source: 'minute', bucketMinutes: minutes };
  return { source: 'hour', bucketMinutes: narrowestFitting(windowMinutes, points, 60) };
}
