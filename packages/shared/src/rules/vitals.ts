import { DEVICE_ONLINE_THRESHOLD_MS, NORMAL_RANGES, PROGRESS_SCALES } from '../constants.ts';

export type Vital = keyof typeof NORMAL_RANGES;

/**
 * A vital the reading did not carry: absent from it, or null as stored (a battery-only reading has
 * no SpO2). The spec shows it as 0; it is never judged against a range and never averaged.
 */
export const isMissing = (value: number | null | undefined): value is null | undefined =>
  value === null || value === undefined;

/** What a value means: not measured, inside the normal range, or on which side of it. */
export type VitalState = 'missing' | 'normal' | 'low' | 'high';

/** Progress-bar percentage on the spec's scale, clamped to 0–100. Missing values count as 0. */
export function progressPercent(vital: Vital, value: number | null | undefined): number {
  const { min, max } = PROGRESS_SCALES[vital];
  const v = value ?? 0;
  const pct = ((v - min) / (max - min)) * 100;
  return Math.min(100, Math.max(0, pct));
}

/** Whether a value lies in the normal range (inclusive). A missing value is not normal. */
export function isNormal(vital: Vital, value: number | null | undefined): boolean {
  return vitalState(vital, value) === 'normal';
}

/** Which side of the normal range a value is on, or null inside it or when it is missing. */
export function outOfRangeSide(vital: Vital, value: number | null | undefined): 'low' | 'high' | null {
  const state = vitalState(vital, value);
  return state === 'low' || state === 'high' ? state : null;
}

/** A value's state: 'missing' (never abnormal), 'normal', or 'low' / 'high' outside the inclusive range. */
export function vitalState(vital: Vital, value: number | null | undefined): VitalState {
  if (isMissing(value)) return 'missing';
  const { min, max } = NORMAL_RANGES[vital];
  return value < min ? 'low' : value > max ? 'high' : 'normal';
}

/**
 * The normal range as drawn on the progress scale: its bounds (an open end closed at the scale's
 * end: SpO2 95–100) and where they fall on the bar, in percent.
 */
export function normalBand(vital: Vital): {
  min: number;
  max: number;
  fromPercent: number;
  toPercent: number;
} {
  const scale = PROGRESS_SCALES[vital];
  const range = NORMAL_RANGES[vital];
  const min = Math.max(range.min, scale.min);
  const max = Math.min(range.max, scale.max);
  return { min, max, fromPercent: progressPercent(vital, min), toPercent: progressPercent(vital, max) };
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
