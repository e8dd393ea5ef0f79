import { type HealthHistory, healthHistoryResponse } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../src/db/index.ts';
import { rangeSummary } from '../src/modules/readings/history.ts';
import { postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';

const MINUTE = 60_000;

describe.each(dbTargets())('health history within a point budget on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0, escalationIntervalMs: 0 } });
  let user: TestUser;
  let deviceId: string;
  /** Every stored reading: a 1 Hz device over 3 h, silent for 40 min in the middle. */
  const readings: { at: number; heartRate: number; spo2: number }[] = [];
  const end = Math.floor(Date.now() / 1000) * 1000 - 1000;
  const start = end - 3 * 3600_000;

  beforeAll(async () => {
    const admin = await createAdmin(built());
    const made = await userWithDevice(built(), admin);
    user = made.user;
    deviceId = made.device._id;
    for (let t = start; t <= end; t += 1000) {
      const silent = t > start + 80 * MINUTE && t < start + 120 * MINUTE;
      if (!silent) readings.push({ at: t, heartRate: 60 + ((t / 1000) % 40), spo2: 95 + ((t / 1000) % 5) });
    }
    for (let i = 0; i < readings.length; i += 500) {
      const res = await postHealth(
        built(),
        made.device.apiAuthCode,
        readings.slice(i, i + 500).map((r) => ({
          messageId: `r${r.at}`,
          recordedAt: new Date(r.at).toISOString(),
          heartRate: r.heartRate,
          spo2: r.spo2,
        })),
      );
      expect(res.statusCode).toBe(202);
    }
  }, 120_000);

  const history = async (from: number, to: number, points?: number, who: TestUser = user) =>
    built().app.inject({
      method: 'POST',
      url: `/api/v1/health/history/${deviceId}`,
      headers: who.auth,
      payload: {
        from: new Date(from).toISOString(),
        to: new Date(to).toISOString(),
        ...(points ? { points } : {}),
      },
    });
  const ok = async (from: number, to: number, points?: number): Promise<HealthHistory> => {
    const res = await history(from, to, points);
    expect(res.statusCode).toBe(200);
    // The reply is written as text (`historyJson`): exactly the response schema's shape, nothing more.
    expect(healthHistoryResponse.parse(res.json())).toEqual(res.json());
    return res.json().data;
  };
  const expected = (from: number, to: number) => {
    const inside = readings.filter((r) => r.at >= from && r.at <= to);
    const mean = (k: 'heartRate' | 'spo2') => inside.reduce((s, r) => s + r[k], 0) / inside.length;
    return { readings: inside.length, heartRate: mean('heartRate'), spo2: mean('spo2') };
  };

  it('answers raw readings, minute or hour buckets, never more than the budget, with an exact summary', async () => {
    const cases = [
      { from: end - 5 * MINUTE + 500, to: end, points: 500, resolution: 'raw' },
      { from: end - 3600_000 + 30_000, to: end, points: 500, resolution: 'minute' },
      { from: start, to: end, points: 200, resolution: 'minute' },
      { from: start, to: end, points: 100, resolution: 'minute' },
      { from: start - 20 * 3600_000, to: end, points: 10, resolution: 'hour' },
    ] as const;
    for (const c of cases) {
      const h = await ok(c.from, c.to, c.points);
      expect(h.resolution).toBe(c.resolution);
      expect(h.buckets.length).toBeLessThanOrEqual(c.points);
      const e = expected(c.from, c.to);
      expect(h.summary.readings).toBe(e.readings);
      expect(h.summary.heartRate?.[1]).toBeCloseTo(e.heartRate, 9);
      expect(h.summary.spo2?.[1]).toBeCloseTo(e.spo2, 9);
      // The buckets hold every reading of the range (an edge bucket may reach just outside it).
      const counted = h.buckets.reduce((s, b) => s + b.readings, 0);
      expect(counted).toBeGreaterThanOrEqual(e.readings);
      expect(counted).toBeLessThanOrEqual(e.readings + (h.bucketSeconds * 1000) / 1000);
    }
    // A sparse device gets every reading, whatever the range.
    const sparse = await ok(start - 20 * 3600_000, start + 2 * MINUTE, 500);
    expect(sparse.resolution).toBe('raw');
    expect(sparse.buckets).toHaveLength(121);
    const coarse = await ok(start - 20 * 3600_000, end, 10);
    expect(coarse.bucketSeconds % 3600).toBe(0);
    expect(coarse.bucketSeconds).toBeGreaterThan(3600);
  });

  it('sums exactly over windows within a minute, between minutes, and on whole minutes and hours', async () => {
    const wholeMinute = Math.ceil((start + 10 * MINUTE) / MINUTE) * MINUTE;
    const wholeHour = Math.ceil(start / 3600_000) * 3600_000;
    const windows = [
      [end - 50_000 + 300, end - 20_000],
      [wholeMinute - 20_500, wholeMinute + 10_000],
      [wholeMinute, wholeMinute + 5 * MINUTE],
      [wholeMinute + 250, wholeMinute + 61 * MINUTE - 250],
      [wholeHour, wholeHour + 3600_000],
      [wholeHour - 1000, end],
    ];
    for (const [from, to] of windows) {
      const { summary } = await ok(from!, to!, 2000);
      const e = expected(from!, to!);
      expect(summary.readings, `${new Date(from!).toISOString()}…${new Date(to!).toISOString()}`).toBe(
        e.readings,
      );
      expect(summary.heartRate?.[1]).toBeCloseTo(e.heartRate, 9);
      expect(summary.spo2?.[1]).toBeCloseTo(e.spo2, 9);
    }
  });

  it('reads only the partial minutes of raw readings for a summary, under a plan made without the values', async () => {
    // A prepared statement switches to a generic plan after five runs when it looks no dearer:
    // forced here, the summary must still read its raw readings as the two partial minutes only,
    // not every reading of the range (all 7,200 of these 3 hours, a week's 604,800 at 1 Hz).
    const from = Math.ceil(start / 3600_000) * 3600_000 - 30_500;
    const to = end - 500;
    const rawRowsRead = async (tx: Tx) => {
      const res =
        (await tx.execute(sql`select coalesce(sum(seq_tup_read + coalesce(idx_tup_fetch, 0)), 0)::int as n
        from pg_stat_xact_user_tables where relname like 'health_records%'`)) as { rows: { n: number }[] };
      return res.rows[0]!.n;
    };
    const read = await built().ctx.db.transaction(async (tx) => {
      await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
      const before = await rawRowsRead(tx);
      const summary = await rangeSummary(tx, deviceId, new Date(from), new Date(to));
      expect(summary.readings).toBe(expected(from, to).readings);
      return (await rawRowsRead(tx)) - before;
    });
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThanOrEqual(120);
  });

  it('gives a 24 h window the most buckets that fit its budget of 500, not one an hour', async () => {
    const h = await ok(end - 24 * 3600_000, end, 500);
    expect([h.resolution, h.bucketSeconds]).toEqual(['minute', 180]);
    // The device sent for 3 of the 24 hours (40 minutes of them silent): 3-minute buckets.
    expect(h.buckets.length).toBeGreaterThan(24);
    expect(h.buckets.length).toBeLessThanOrEqual(500);
    expect(h.buckets.reduce((n, b) => n + b.readings, 0)).toBe(readings.length);
    const steps = h.buckets.slice(1).map((b, i) => (Date.parse(b.t) - Date.parse(h.buckets[i]!.t)) / MINUTE);
    expect(steps.every((m) => m % 3 === 0)).toBe(true);
    const twoHours = await ok(start, end, 100);
    expect([twoHours.resolution, twoHours.bucketSeconds]).toEqual(['minute', 120]);
  });

  it('leaves the silent 40 minutes as a gap: no bucket, never a line drawn across', async () => {
    const h = await ok(start, end, 500);
    expect(h.resolution).toBe('minute');
    const inGap = h.buckets.filter((b) => {
      const t = Date.parse(b.t);
      return t > start + 81 * MINUTE && t < start + 119 * MINUTE;
    });
    expect(inGap).toEqual([]);
    const whole = Math.ceil((start + 10 * MINUTE) / MINUTE) * MINUTE;
    const oneMinute = h.buckets.find((b) => Date.parse(b.t) === whole);
    const [min, avg, max, count] = oneMinute?.heartRate ?? [];
    expect([oneMinute?.readings, count]).toEqual([60, 60]);
    expect(min).toBeLessThanOrEqual(avg ?? 0);
    expect(max).toBeGreaterThanOrEqual(avg ?? 0);
  });

  it('refuses bad ranges with per-field messages, others’ devices with 404, guests with 401', async () => {
    const backwards = await history(end, start);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().issues).toEqual([{ path: 'to', message: 'to must be after from' }]);
    const greedy = await history(start, end, 100_000);
    expect(greedy.json().issues[0]).toEqual({ path: 'points', message: 'points must be at most 2000' });
    expect((await history(start, end, 100, await signup(built()))).statusCode).toBe(404);
    const guest = await built().app.inject({ method: 'POST', url: `/api/v1/health/history/${deviceId}` });
    expect(guest.statusCode).toBe(401);
  });
});
