import {
  DEVICE_ONLINE_THRESHOLD_MS,
  type HealthHistory,
  type HealthRecord,
  type HistoryBucket,
  isMissing,
  type VitalStats,
} from '@vitalwatch/shared';

/** The server's bucket origin: buckets start on whole UTC minutes / hours counted from here. */
const ORIGIN = Date.UTC(2000, 0, 1);
const VITALS = ['spo2', 'heartRate', 'temperature', 'battery'] as const;

/** `[min, avg, max, count]` with one more reading; a missing value is not one. */
const add = (s: VitalStats, v: number | null): VitalStats => {
  if (isMissing(v)) return s;
  if (!s) return [v, v, v, 1];
  const [min, avg, max, n] = s;
  return [Math.min(min, v), avg + (v - avg) / (n + 1), Math.max(max, v), n + 1];
};

function addReading<T extends Omit<HistoryBucket, 't'>>(target: T, r: HealthRecord): T {
  const next = { ...target, readings: target.readings + 1 };
  for (const v of VITALS) next[v] = add(target[v], r[v]);
  return next;
}

/**
 * A live reading added to a history in the cache: into its bucket (a new one at the end when the
 * time has moved on, or a raw point), and into the summary; the window's end moves up to it
 * unless the window is fixed (`extend` false: a custom range). A reading outside it is left out.
 */
export function withLiveReading(h: HealthHistory, r: HealthRecord, extend = true): HealthHistory {
  const t = Date.parse(r.createdAt);
  if (t < Date.parse(h.from) || (!extend && t > Date.parse(h.to))) return h;
  const to = t > Date.parse(h.to) ? r.createdAt : h.to;
  const step = h.bucketSeconds * 1000;
  const start = step === 0 ? t : ORIGIN + Math.floor((t - ORIGIN) / step) * step;
  const at = h.buckets.findIndex((b) => Date.parse(b.t) === start);
  const empty = {
    t: new Date(start).toISOString(),
    readings: 0,
    spo2: null,
    heartRate: null,
    temperature: null,
    battery: null,
  };
  const buckets =
    at >= 0 && step > 0
      ? h.buckets.map((b, i) => (i === at ? addReading(b, r) : b))
      : [...h.buckets, addReading(empty, r)].sort((a, b) => Date.parse(a.t) - Date.parse(b.t));
  return { ...h, to, buckets, summary: addReading(h.summary, r) };
}

export interface SeriesPoint {
  x: number;
  y: number | null;
}

export interface Series {
  avg: SeriesPoint[];
  min: SeriesPoint[];
  max: SeriesPoint[];
}

/** Longer than this between two buckets is a silence: more than it takes to count as offline, or two buckets. */
const gapAfter = (h: HealthHistory) => Math.max(DEVICE_ONLINE_THRESHOLD_MS, 2 * h.bucketSeconds * 1000);

/** The stretches of the window with no reading: between buckets further apart than `gapAfter`. */
export function gapsOf(h: HealthHistory): { from: number; to: number }[] {
  const step = h.bucketSeconds * 1000;
  const gaps: { from: number; to: number }[] = [];
  for (let i = 1; i < h.buckets.length; i++) {
    const before = Date.parse(h.buckets[i - 1]!.t) + step;
    const after = Date.parse(h.buckets[i]!.t);
    if (after - before > gapAfter(h) - step) gaps.push({ from: before, to: after });
  }
  return gaps;
}

/**
 * One vital as the chart draws it: the average line and the min–max band, a point at each bucket's
 * middle. Where the device was silent (`gapsOf`) a null point breaks the line: a gap is shown,
 * never a line drawn across it.
 */
export function seriesOf(
  h: HealthHistory,
  vital: 'heartRate' | 'spo2' | 'temperature',
  /** Into the unit drawn (temperature: the user's). */
  convert: (value: number) => number = (v) => v,
): Series {
  const step = h.bucketSeconds * 1000;
  const out: Series = { avg: [], min: [], max: [] };
  let last: number | null = null;
  for (const b of h.buckets) {
    const s = b[vital];
    if (!s) continue;
    const x = Date.parse(b.t) + step / 2;
    if (last !== null && x - last > gapAfter(h)) {
      const mid = (x + last) / 2;
      for (const k of ['avg', 'min', 'max'] as const) out[k].push({ x: mid, y: null });
    }
    const [min, avg, max] = s;
    out.avg.push({ x, y: convert(avg) });
    out.min.push({ x, y: convert(min) });
    out.max.push({ x, y: convert(max) });
    last = x;
  }
  return out;
}

/** A summary average for a tile: one decimal, 0 when the range has no reading of it (spec). */
export const tileAverage = (s: VitalStats): number => (s ? Math.round(s[1] * 10) / 10 : 0);
