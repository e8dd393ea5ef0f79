import type { HealthHistory, HistoryBucket } from '@vitalwatch/shared';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../src/db/schema.ts';
import { deviceHistory } from '../src/modules/readings/history.ts';
import { HistoryBucketCache } from '../src/modules/readings/history-cache.ts';
import { postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, type TestUser, useTestApp } from './helpers.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A bucket of one reading at `t` (ms), its heart rate `hr`. */
const bucket = (t: number, hr = 60): HistoryBucket => ({
  t: new Date(t).toISOString(),
  readings: 1,
  spo2: null,
  heartRate: [hr, hr, hr, 1],
  temperature: null,
  battery: null,
});

describe('the kept buckets of a chart (HistoryBucketCache)', () => {
  const key = { deviceId: 'd1', source: 'minute' as const, bucketMinutes: 3 };
  const now = Date.UTC(2026, 10, 28, 12, 0, 30);
  const whole = (t: number) => Math.floor(t / (3 * MINUTE)) * 3 * MINUTE;
  /**
   * A device with a bucket every 3 minutes up to 12:00; `until(to)` reads them as the database
   * does, from the bucket holding `fromMs` up to `to`, and counts the reads.
   */
  function device() {
    const reads: number[] = [];
    const all = Array.from({ length: 600 }, (_, i) => bucket(now - 30_000 - (599 - i) * 3 * MINUTE, i));
    return {
      reads,
      all,
      until: (to: number) => async (fromMs: number) => {
        reads.push(fromMs);
        return all.filter((b) => Date.parse(b.t) >= whole(fromMs) && Date.parse(b.t) <= to);
      },
    };
  }

  it('reads a chart whole once, then only from the first bucket it did not keep', async () => {
    let clock = now;
    const cache = new HistoryBucketCache();
    const d = device();
    const from = now - 24 * HOUR;
    const first = await cache.buckets(key, { version: 7, now: clock }, from, now, d.until(now));
    expect(first).toEqual(d.all.filter((b) => Date.parse(b.t) >= whole(from)));
    expect(d.reads).toEqual([Date.UTC(2026, 10, 27, 12, 0)]);
    // Kept: the buckets that ended five minutes ago or more; the one of 11:54 ends at 11:57, not yet.
    clock += 10_000;
    const again = await cache.buckets(key, { version: 7, now: clock }, from + 10_000, clock, d.until(clock));
    expect(again).toEqual(first);
    expect(d.reads[1]).toBe(Date.UTC(2026, 10, 28, 11, 54));
    // Three minutes on, the bucket of 11:54 is finished and kept too.
    clock += 3 * MINUTE;
    await cache.buckets(key, { version: 7, now: clock }, from + 3 * MINUTE, clock, d.until(clock));
    const third = await cache.buckets(
      key,
      { version: 7, now: clock },
      from + 3 * MINUTE,
      clock,
      d.until(clock),
    );
    expect(d.reads.slice(2)).toEqual([Date.UTC(2026, 10, 28, 11, 54), Date.UTC(2026, 10, 28, 11, 57)]);
    expect(third).toEqual(d.all.filter((b) => Date.parse(b.t) >= whole(from + 3 * MINUTE)));
  });

  it('reads whole again for another version, an earlier start, or after ten minutes', async () => {
    let clock = now;
    const cache = new HistoryBucketCache();
    const d = device();
    const from = now - 12 * HOUR;
    await cache.buckets(key, { version: 1, now: clock }, from, now, d.until(now));
    await cache.buckets(key, { version: 2, now: clock }, from, now, d.until(now));
    await cache.buckets(key, { version: 2, now: clock }, from - HOUR, now, d.until(now));
    clock += 11 * MINUTE;
    await cache.buckets(key, { version: 2, now: clock }, from - HOUR, now, d.until(now));
    expect(d.reads).toEqual([whole(from), whole(from), whole(from - HOUR), whole(from - HOUR)]);
  });

  it('answers an older end from what it kept, without the buckets after it', async () => {
    const cache = new HistoryBucketCache();
    const clock = now;
    const d = device();
    await cache.buckets(key, { version: 1, now: clock }, now - 24 * HOUR, now, d.until(now));
    const to = now - 2 * HOUR;
    const older = await cache.buckets(key, { version: 1, now: clock }, to - 6 * HOUR, to, d.until(to));
    expect(older).toEqual(
      d.all.filter((b) => Date.parse(b.t) >= whole(to - 6 * HOUR) && Date.parse(b.t) <= to),
    );
    expect(d.reads[1]).toBe(whole(to));
  });

  it('keeps no more than 100,000 buckets, the least recently used going first', async () => {
    const cache = new HistoryBucketCache();
    const clock = now;
    const d = device();
    const from = now - 30 * HOUR;
    // 597 buckets kept a device: the 168th passes the bound, and the first falls out.
    for (let i = 0; i < 170; i++)
      await cache.buckets({ ...key, deviceId: `d${i}` }, { version: 1, now: clock }, from, now, d.until(now));
    d.reads.length = 0;
    await cache.buckets({ ...key, deviceId: 'd169' }, { version: 1, now: clock }, from, now, d.until(now));
    await cache.buckets({ ...key, deviceId: 'd0' }, { version: 1, now: clock }, from, now, d.until(now));
    expect(d.reads).toEqual([Date.UTC(2026, 10, 28, 11, 54), whole(from)]);
  });
});

describe.each(dbTargets())('charts read again on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0, escalationIntervalMs: 0 } });
  let user: TestUser;
  let device: { _id: string; apiAuthCode: string };
  const end = Math.floor(Date.now() / 1000) * 1000;

  beforeAll(async () => {
    const admin = await createAdmin(built());
    ({ user, device } = await userWithDevice(built(), admin));
    // One reading every 10 s over the last 6 hours: 2,160, more than the budget (minute buckets).
    const readings = Array.from({ length: 2160 }, (_, i) => ({
      messageId: `r${i}`,
      recordedAt: new Date(end - 6 * HOUR + i * 10_000).toISOString(),
      heartRate: 60 + (i % 30),
    }));
    for (let i = 0; i < readings.length; i += 500)
      expect((await postHealth(built(), device.apiAuthCode, readings.slice(i, i + 500))).statusCode).toBe(
        202,
      );
  }, 60_000);

  const chart = async (to = Date.now()): Promise<{ asked: HealthHistory; fresh: HealthHistory }> => {
    const from = to - 24 * HOUR;
    const res = await built().app.inject({
      method: 'POST',
      url: `/api/v1/health/history/${device._id}`,
      headers: user.auth,
      payload: { from: new Date(from).toISOString(), to: new Date(to).toISOString(), points: 500 },
    });
    expect(res.statusCode).toBe(200);
    const fresh = await deviceHistory(built().ctx.db, device._id, new Date(from), new Date(to), 500);
    return { asked: res.json().data, fresh };
  };
  const version = async () =>
    (
      await built()
        .ctx.db.select({ v: devices.historyVersion })
        .from(devices)
        .where(eq(devices.id, device._id))
    )[0]!.v;
  const bucketAt = (h: HealthHistory, t: number) =>
    h.buckets.find((b) => Date.parse(b.t) === Math.floor(t / (3 * MINUTE)) * 3 * MINUTE);

  it('answers as a fresh read does; a finished bucket is not read again until a late reading lands in it', async () => {
    const first = await chart();
    expect(first.asked.resolution).toBe('minute');
    expect(first.asked).toEqual(first.fresh);

    // Changed behind the server's back (no version): the kept bucket still answers, proof it was kept.
    const twoHoursAgo = end - 2 * HOUR;
    const minute = new Date(Math.floor(twoHoursAgo / MINUTE) * MINUTE);
    await built().ctx.db.execute(
      sql`update health_rollups_minute set heart_rate_max = 200
        where device_seq = (select seq from devices where id = ${device._id}::uuid) and bucket = ${minute.toISOString()}::timestamptz`,
    );
    const kept = await chart();
    expect(bucketAt(kept.asked, twoHoursAgo)?.heartRate?.[2]).toBe(
      bucketAt(first.asked, twoHoursAgo)?.heartRate?.[2],
    );
    expect(bucketAt(kept.fresh, twoHoursAgo)?.heartRate?.[2]).toBe(200);

    // A late reading (recorded 2 hours ago) moves the device's version: the chart is read whole.
    const before = await version();
    const late = await postHealth(built(), device.apiAuthCode, {
      messageId: 'late-one',
      recordedAt: new Date(twoHoursAgo + 5_000).toISOString(),
      heartRate: 31,
    });
    expect(late.statusCode).toBe(202);
    expect(await version()).toBe(before + 1);
    const after = await chart();
    expect(after.asked).toEqual(after.fresh);
    expect(bucketAt(after.asked, twoHoursAgo)?.heartRate?.slice(0, 3)).toEqual([31, expect.any(Number), 200]);
  });

  it('shows a reading of now in the newest bucket without retiring the kept ones', async () => {
    await chart();
    const before = await version();
    const now = Date.now();
    const res = await postHealth(built(), device.apiAuthCode, {
      messageId: 'now-one',
      recordedAt: new Date(now).toISOString(),
      heartRate: 140,
    });
    expect(res.statusCode).toBe(202);
    expect(await version()).toBe(before);
    const { asked, fresh } = await chart(now + 1000);
    expect(asked).toEqual(fresh);
    expect(bucketAt(asked, now)?.heartRate?.[2]).toBe(140);
  });
});
