import { HISTORY_POINTS_MAX, type HistoryBucket } from '@vitalwatch/shared';

/**
 * A reading stored this long after it was recorded (by the database's clock as the batch's insert
 * runs) is late: its batch adds one to the device's `history_version` (migration 0032), which
 * retires every bucket of that device kept here.
 */
export const LATE_READING_MS = 60_000;
/**
 * Only buckets that ended this long ago by the database's clock (read with the version) are kept:
 * a reading recorded in one is late when it is inserted, unless its batch's transaction is still
 * open four minutes after its insert (each of its statements ends after 15 s).
 */
const FINISHED_AFTER_MS = 5 * 60_000;
/** Buckets are aligned to this origin, as `date_bin` aligns them in `history.ts`. */
const ORIGIN_MS = Date.UTC(2000, 0, 1);
/** An entry is read whole again after this: it bounds what it could miss of a change that bumps no version (a dropped partition). */
const ENTRY_TTL_MS = 10 * 60_000;
/** Buckets kept in all: about 40 MB at most (a 24 h chart of one device is 480 of them). */
const MAX_BUCKETS = 100_000;

/** What the caller read before any bucket: the device's history version and the database's time (epoch ms). */
export interface ReadAt {
  version: number;
  now: number;
}

export interface BucketKey {
  deviceId: string;
  source: 'minute' | 'hour';
  bucketMinutes: number;
}

interface Entry {
  version: number;
  storedAt: number;
  /** Kept: every bucket starting in [start, end) that holds a reading, oldest first. */
  start: number;
  end: number;
  times: number[];
  buckets: HistoryBucket[];
}

/**
 * The finished buckets of the devices' histories, per device and bucket width, so that a chart
 * asked again (every viewer of a device, every refresh) reads only its newest buckets from the
 * database. A finished bucket changes only when a late reading lands in it, and such a reading
 * changes the device's `history_version`, which every caller reads first (in the same statement
 * as its access check, before the buckets): an entry of another version is not used. The version
 * is in the database, so this holds for every process of a cluster, whichever stored the reading.
 */
export class HistoryBucketCache {
  private readonly entries = new Map<string, Entry>();
  private bucketCount = 0;

  /**
   * The buckets of `key` over [fromMs, toMs] as `read` answers them, `read(fromMs)` giving the
   * buckets from the one holding `fromMs` up to `toMs`: the kept ones of `at.version` are not read again.
   */
  async buckets(
    key: BucketKey,
    at: ReadAt,
    fromMs: number,
    toMs: number,
    read: (fromMs: number) => Promise<HistoryBucket[]>,
  ): Promise<HistoryBucket[]> {
    const { version, now } = at;
    const step = key.bucketMinutes * 60_000;
    const align = (t: number) => ORIGIN_MS + Math.floor((t - ORIGIN_MS) / step) * step;
    const first = align(fromMs);
    // Kept: the buckets wholly inside the range (all their rollup rows at or before `toMs`) and finished.
    const limit = Math.min(align(toMs), align(now - FINISHED_AFTER_MS));
    const name = `${key.deviceId} ${key.source} ${key.bucketMinutes}`;
    const entry = this.entries.get(name);
    const usable =
      entry !== undefined &&
      entry.version === version &&
      entry.start <= first &&
      entry.storedAt <= now &&
      now - entry.storedAt < ENTRY_TTL_MS;
    if (!usable) {
      const fresh = await read(first);
      if (limit > first) this.store(name, { version, storedAt: now, start: first, end: first }, fresh, limit);
      return fresh;
    }
    // Most recent use last: the first entry of the map is the one evicted.
    this.entries.delete(name);
    this.entries.set(name, entry);
    // Kept buckets are used from `first` up to the entry's end or `limit`, whichever is first.
    const readFrom = Math.max(first, Math.min(entry.end, limit));
    const fresh = await read(readFrom);
    const kept = entry.buckets.slice(lowerBound(entry.times, first), lowerBound(entry.times, readFrom));
    if (readFrom === entry.end && limit > entry.end && this.entries.get(name) === entry) {
      this.store(name, entry, fresh, limit, now - step * (HISTORY_POINTS_MAX + 1));
    }
    return kept.concat(fresh);
  }

  /** Add `fresh`'s buckets before `end` to `entry` (after its own), drop those before `dropBefore`, and keep it. */
  private store(
    name: string,
    entry: Omit<Entry, 'times' | 'buckets'> & Partial<Entry>,
    fresh: HistoryBucket[],
    end: number,
    dropBefore = Number.NEGATIVE_INFINITY,
  ): void {
    const old = this.entries.get(name);
    if (old) this.bucketCount -= old.buckets.length;
    // Copies: a request still under way may slice the entry it found. The bucket objects themselves are
    // never changed once made: the reply writes each one's JSON once (`historyJson`) and keeps it.
    const times = [...(entry.times ?? [])];
    const buckets = [...(entry.buckets ?? [])];
    for (const bucket of fresh) {
      const t = Date.parse(bucket.t);
      if (t >= end) break;
      if (t < entry.end) continue;
      times.push(t);
      buckets.push(bucket);
    }
    const drop = lowerBound(times, dropBefore);
    const kept: Entry = {
      version: entry.version,
      storedAt: entry.storedAt,
      start: Math.max(entry.start, dropBefore),
      end,
      times: times.slice(drop),
      buckets: buckets.slice(drop),
    };
    this.entries.delete(name);
    this.entries.set(name, kept);
    this.bucketCount += kept.buckets.length;
    for (const [oldest, e] of this.entries) {
      if (this.bucketCount <= MAX_BUCKETS) break;
      this.entries.delete(oldest);
      this.bucketCount -= e.buckets.length;
    }
  }
}

/** The index of the first of the ascending `times` at or after `t`. */
function lowerBound(times: number[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
