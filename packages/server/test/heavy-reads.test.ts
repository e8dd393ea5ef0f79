import { SERVER_MESSAGES } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HeavyReads } from '../src/http/heavy-reads.ts';
import { postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, type TestUser, useTestApp } from './helpers.ts';

const HOUR = 3_600_000;

describe('HeavyReads turns', () => {
  afterEach(() => vi.useRealTimers());

  it('refuses a user over their limit, and hands freed slots to waiting users in turn', async () => {
    const reads = new HeavyReads({ perUser: 3, total: 2 });
    const granted: string[] = [];
    const take = (key: string) =>
      reads.acquire(key).then((release) => {
        granted.push(key);
        return release;
      });
    const [a1, a2] = await Promise.all([take('a'), take('a')]);
    // Both slots are a's; a's third waits, then b and c queue behind it.
    const waiting = [take('a'), take('b'), take('b'), take('c')];
    await expect(reads.acquire('a')).rejects.toMatchObject({
      code: 'rateLimited',
      message: SERVER_MESSAGES.heavyReadsPerUser,
      details: { retryAfterSeconds: 5 },
    });
    expect(reads.load).toEqual({ running: 2, waiting: 4 });
    a1!();
    a2!();
    const [a3, b1] = await Promise.all([waiting[0], waiting[1]]);
    a3!();
    b1!();
    await Promise.all([waiting[2], waiting[3]]);
    // Each user in turn: b's second waits behind c.
    expect(granted).toEqual(['a', 'a', 'a', 'b', 'c', 'b']);
  });

  it('answers 503 to a request that waited too long, and forgets it', async () => {
    vi.useFakeTimers();
    const reads = new HeavyReads({ perUser: 1, total: 1, queueWaitMs: 10_000 });
    const release = await reads.acquire('a');
    const late = reads.acquire('b');
    const settled = expect(late).rejects.toMatchObject({
      code: 'temporarilyUnavailable',
      message: SERVER_MESSAGES.heavyReadsBusy,
    });
    await vi.advanceTimersByTimeAsync(10_000);
    await settled;
    expect(reads.load).toEqual({ running: 1, waiting: 0 });
    release();
    expect(reads.load).toEqual({ running: 0, waiting: 0 });
    (await reads.acquire('b'))();
  });
});

describe.each(dbTargets())('heavy reads per user on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;

  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  /** A user with a device holding `count` readings of the last hour (one every 10 ms). */
  async function userWithReadings(count: number) {
    const made = await userWithDevice(built(), admin);
    const { ctx } = built();
    await ctx.partitions.ensure(new Date(Date.now() - HOUR), new Date(Date.now() + HOUR));
    await ctx.db.execute(sql`insert into health_records (device_seq, recorded_at, spo2, heart_rate)
      select (select seq from devices where id = ${made.device._id}::uuid),
        now() - g * interval '10 milliseconds', 97, 70
      from generate_series(1, ${count}) g`);
    return made;
  }

  const period = () => `from=${new Date(Date.now() - HOUR).toISOString()}&to=${new Date().toISOString()}`;
  const exportOf = (who: TestUser, deviceId: string, payloadAsStream = false) =>
    built().app.inject({
      method: 'GET',
      url: `/api/v1/export/readings/${deviceId}?${period()}&resolution=raw`,
      headers: who.auth,
      payloadAsStream,
    });

  it("refuses one user's flood of exports with 429 while another user's requests answer", async () => {
    // Three CSV pages of 5,000 rows: an export whose body nobody reads stays running.
    const flooder = await userWithReadings(12_000);
    // Through the ingest, so that the minute rollups hold them too: the history's summary reads the
    // whole minutes from the rollups, and readings inserted straight into the table a moment before
    // a minute ended were not counted (0 of 10, when the history was asked in the next minute).
    const other = await userWithDevice(built(), admin);
    const sent = await postHealth(
      built(),
      other.device.apiAuthCode,
      Array.from({ length: 10 }, (_, i) => ({
        spo2: 97,
        heartRate: 70,
        recordedAt: new Date(Date.now() - (i + 1) * 1000).toISOString(),
      })),
    );
    expect(sent.statusCode).toBe(202);

    // 16 raw CSV exports at once: three run (held open: their bodies are not read), the rest are refused.
    const flood = await Promise.all(
      Array.from({ length: 16 }, () => exportOf(flooder.user, flooder.device._id, true)),
    );
    const running = flood.filter((r) => r.statusCode === 200);
    const refused = flood.filter((r) => r.statusCode === 429);
    expect(running).toHaveLength(3);
    expect(refused).toHaveLength(13);
    expect(refused[0]!.headers['retry-after']).toBe('5');
    expect(
      JSON.parse(
        await refused[0]!
          .stream()
          .toArray()
          .then((c) => Buffer.concat(c).toString()),
      ),
    ).toMatchObject({
      message: SERVER_MESSAGES.heavyReadsPerUser,
    });

    // The limit is the user's, across routes: their history and FHIR search are refused too.
    const history = await built().app.inject({
      method: 'POST',
      url: `/api/v1/health/history/${flooder.device._id}`,
      headers: flooder.user.auth,
      payload: { from: new Date(Date.now() - HOUR).toISOString(), to: new Date().toISOString() },
    });
    expect(history.statusCode).toBe(429);
    const fhir = await built().app.inject({
      method: 'GET',
      url: `/fhir/R4/Observation?device=Device/${flooder.device._id}`,
      headers: flooder.user.auth,
    });
    expect(fhir.statusCode).toBe(429);
    expect(fhir.headers['retry-after']).toBe('5');

    // Another user is not held back: their export and history answer.
    const theirs = await exportOf(other.user, other.device._id);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.body.trim().split('\n')).toHaveLength(11);
    const theirHistory = await built().app.inject({
      method: 'POST',
      url: `/api/v1/health/history/${other.device._id}`,
      headers: other.user.auth,
      payload: { from: new Date(Date.now() - HOUR).toISOString(), to: new Date().toISOString() },
    });
    expect(theirHistory.statusCode).toBe(200);
    expect(theirHistory.json().data.summary.readings).toBe(10);

    // Read to the end, the flood's exports free their slots: the next request gets past the
    // limit (to a 404, a device not theirs, so that it reads nothing).
    expect(built().ctx.heavyReads.load.running).toBe(3);
    for (const res of running) await res.stream().toArray();
    expect(built().ctx.heavyReads.load.running).toBe(0);
    const again = await exportOf(flooder.user, other.device._id);
    expect(again.statusCode).toBe(404);
  });
});
