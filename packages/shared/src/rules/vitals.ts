import { DEVICE_ONLINE_THRESHOLD_MS, NORMAL_RANGES, PROGRESS_SCALES } from '../constants.ts';

export type Vital = keyof typeof NORMAL_RANGES;

/** Progress-bar percentage on the spec's scale, clamped to 0–100. Missing values count as 0. */
export function progressPercent(vital: Vital, value: number | null | undefined): number {
  const { min, max } = PROGRESS_SCALES[vital];
  const v = value ?? 0;
  const pct = ((v - min) / (max - min)) * 100;
  return Math.min(100, Math.max(0, pct));
}

/** Whether a value lies in the normal range (inclusive). Missing values count as 0. */
export function isNormal(vital: Vital, value: number | null | undefined): boolean {
  const { min, max } = NORMAL_RANGES[vital];
  const v = value ?? 0;
  return v >= min && v <= max;
}

/** Which side of the normal range a value is on, or null inside it. Missing values count as 0. */
export function outOfRangeSide(vital: Vital, value: number | null | undefined): 'low' | 'high' | null {
  const { min, max } = NORMAL_RANGES[vital];
  const v = value ?? 0;
  return v < min ? 'low' : v > max ? 'high' : null;
}

/** Online when the last reading is at most 15 minutes old. */
export function isDeviceOnline(
  lastUpdate: Date | string | null | undefined,
  now: Date = new Date(),
): boolean {
  if (!lastUpdate) return false;
  const time = typeof lastUpdate === 'string' ? Date.parse(lastUpdate) : lastUpdate.getTime();
  if (Number.isNaN(time)) return false;
  return now.getTime() - time <= DEVICE_ONLINE_THRESHOLD_MS;
}
