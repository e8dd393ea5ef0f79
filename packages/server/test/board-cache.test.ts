import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { BOARD_SNAPSHOT_MAX_AGE_MS, type BoardSnapshotWire } from '@vitalwatch/shared';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDevice, isoFromNow, postHealth } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';

/**
 * Issue 25's latency: one build of a user's board serves every request of it while young, and a
 * board that (re)connected gets one built after it.
 */
describe.each(dbTargets())('the board snapshot, built once for many, on $name', (target) => {
  const built = useTestApp(target, {
    ingest: { offlineSweepIntervalMs: 0, escalationIntervalMs: 0 },
    notifications: { pollMs: 0 },
  });
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const carerWithDevice = async () => {
    const carer = await signup(built());
    const device = await createDevice(built(), admin, { users: [carer.user._id] });
    return { carer, device };
  };
  const get = async (user: TestUser, query = '', encoding = 'identity') => {
    const res = await built().app.inject({
      method: 'GET',
      url: `/api/v1/board/snapshot${query}`,
      headers: { ...user.auth, 'accept-encoding': encoding },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  const dataOf = async (user: TestUser, query = '') =>
    (await get(user, query)).json<{ data: BoardSnapshotWire }>().data;
  const countBuilds = () => vi.spyOn(built().ctx.board, 'snapshot');
  /** The server's clock, held at `at` (ms) while set, else the real one. */
  const clock = () => {
    const realNow = Date.now.bind(Date);
    let held: number | undefined;
    vi.spyOn(Date, 'now').mockImplementation(() => held ?? realNow());
    return {
      hold: (at: number | undefined) => {
        held = at;
      },
    };
  };

  it('answers twenty simultaneous requests of one user with one build, in each encoding asked', async () => {
    const { carer, device } = await carerWithDevice();
    const builds = countBuilds();
    // However slow the machine, all twenty come within the build's young age.
    const time = clock();
    time.hold(Date.now());
    const encodings = ['identity', 'gzip', 'br', 'gzip, deflate, br', 'br;q=0.1, gzip'];
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => get(carer, '', encodings[i % encodings.length])),
    );
    expect(builds).toHaveBeenCalledTimes(1);
    const bodies = replies.map((res) => {
      const encoding = res.headers['content-encoding'];
      if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString();
      if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString();
      return res.body;
    });
    expect(replies.map((r) => r.headers['content-encoding'])).toEqual(
      Array.from({ length: 20 }, (_, i) => [undefined, 'gzip', 'br', 'br', 'gzip'][i % 5]),
    );
    expect(new Set(bodies).size).toBe(1);
    const sent = JSON.parse(bodies[0]!) as { success: boolean; data: BoardSnapshotWire };
    expect(sent.success).toBe(true);
    expect(sent.data.devices.map((d) => d._id)).toEqual([device._id]);
    // Another user's board is their own build.
    time.hold(undefined);
    const other = await signup(built());
    expect((await dataOf(other)).devices).toEqual([]);
    expect(builds).toHaveBeenCalledTimes(2);
  });

  it('builds afresh for a board that connected after the last build, and reuses that one after', async () => {
    const { carer, device } = await carerWithDevice();
    const builds = countBuilds();
    const time = clock();
    const t0 = Date.now();
    time.hold(t0);
    const first = await dataOf(carer);
    time.hold(undefined);
    await postHealth(built(), device.apiAuthCode, {
      heartRate: 77,
      spo2: 97,
      temperature: 98.1,
      battery: 64,
      recordedAt: isoFromNow(-1000),
    });
    await built().ctx.ingest.drain();
    // Within its age (the clock held where it was built), whatever happened since.
    time.hold(t0);
    const reused = await dataOf(carer);
    expect(reused.at).toBe(first.at);
    expect(reused.devices[0]!.latest).toBeNull();
    expect(builds).toHaveBeenCalledTimes(1);

    // A board whose socket connected a millisecond later gets a build of its own.
    const connected = new Date(t0 + 1).toISOString();
    time.hold(t0 + 1);
    const fresh = await dataOf(carer, `?after=${encodeURIComponent(connected)}`);
    expect(builds).toHaveBeenCalledTimes(2);
    expect(fresh.at).toBe(connected);
    expect(fresh.devices[0]!.latest).toMatchObject({ heartRate: 77 });
    expect((await dataOf(carer)).at).toBe(fresh.at);
    expect((await dataOf(carer, `?after=${encodeURIComponent(new Date(t0).toISOString())}`)).at).toBe(
      fresh.at,
    );
    expect(builds).toHaveBeenCalledTimes(2);

    const bad = await built().app.inject({
      method: 'GET',
      url: '/api/v1/board/snapshot?after=yesterday',
      headers: carer.auth,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('answers with a young build while making the next, and never with one past its age', async () => {
    const { carer } = await carerWithDevice();
    const builds = countBuilds();
    const time = clock();
    const t0 = Date.now();
    time.hold(t0);
    const first = await dataOf(carer);

    // Past half its age: still this one, and the next is under way.
    time.hold(t0 + BOARD_SNAPSHOT_MAX_AGE_MS * 0.6);
    expect((await dataOf(carer)).at).toBe(first.at);
    expect(builds).toHaveBeenCalledTimes(2);
    const second = await builds.mock.results[1]!.value;
    expect(Date.parse(second.at)).toBe(t0 + BOARD_SNAPSHOT_MAX_AGE_MS * 0.6);
    expect((await dataOf(carer)).at).toBe(second.at);
    expect(builds).toHaveBeenCalledTimes(2);

    // Past its age: a new build, waited for.
    const late = t0 + BOARD_SNAPSHOT_MAX_AGE_MS * 1.6 + 1;
    time.hold(late);
    expect(Date.parse((await dataOf(carer)).at)).toBe(late);
    expect(builds).toHaveBeenCalledTimes(3);
  });
});
