import { BOARD_SNAPSHOT_MAX_AGE_MS, type BoardSnapshotWire, type Team } from '@vitalwatch/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type BuiltApp, buildApp } from '../src/app.ts';
import { adminPost } from './admin-helpers.ts';
import { createDevice } from './device-helpers.ts';
import {
  createAdmin,
  type DbTarget,
  dbTargets,
  signup,
  type TestUser,
  testConfig,
  unique,
  useTestApp,
} from './helpers.ts';
import { serviceUrl } from './realtime-helpers.ts';

/**
 * Issue 25: leaving a team (or losing a device) takes its devices off the board at once. A board
 * is cached for up to BOARD_SNAPSHOT_MAX_AGE_MS; a change of access drops it, on every process.
 * The server's clock is held while the cache is full, so a cached board would be reused for as
 * long as the test runs: only the change's notice can take the device off.
 */

const snapshotOf = async (built: BuiltApp, user: TestUser): Promise<BoardSnapshotWire> => {
  const res = await built.app.inject({
    method: 'GET',
    url: '/api/v1/board/snapshot',
    headers: { ...user.auth, 'accept-encoding': 'identity' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: BoardSnapshotWire }>().data;
};
const idsOn = async (built: BuiltApp, user: TestUser) =>
  (await snapshotOf(built, user)).devices.map((d) => d._id);

/** Date.now held at `at` (ms) while set, else the real one. */
function holdClock() {
  const realNow = Date.now.bind(Date);
  let held: number | undefined;
  vi.spyOn(Date, 'now').mockImplementation(() => held ?? realNow());
  return {
    hold: (at: number | undefined) => {
      held = at;
    },
    realNow,
  };
}

const teamsApi = (
  built: BuiltApp,
  admin: TestUser,
  method: 'POST' | 'PATCH' | 'DELETE',
  path = '',
  payload?: object,
) => built.app.inject({ method, url: `/api/v1/admin/teams${path}`, headers: admin.auth, payload });

async function teamWith(
  built: BuiltApp,
  admin: TestUser,
  deviceIds: string[],
  carer: TestUser,
): Promise<Team> {
  const res = await teamsApi(built, admin, 'POST', '', {
    name: unique('Ward '),
    deviceIds,
    members: [{ userId: carer.user._id, role: 'primary' }],
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.team;
}

const quiet = {
  ingest: { offlineSweepIntervalMs: 0, escalationIntervalMs: 0 },
  notifications: { pollMs: 0 },
};

describe.each(dbTargets())('a cached board after a change of access, on $name', (target) => {
  const built = useTestApp(target, quiet);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A carer whose board (built and cached at a held instant) lists `device` through a new team. */
  const cachedThroughTeam = async () => {
    const carer = await signup(built());
    const device = await createDevice(built(), admin);
    const team = await teamWith(built(), admin, [device._id], carer);
    const clock = holdClock();
    clock.hold(clock.realNow());
    expect(await idsOn(built(), carer)).toEqual([device._id]);
    return { carer, device, team, clock };
  };

  it('a member removed from the team: their very next snapshot does not list its device', async () => {
    const { carer, team } = await cachedThroughTeam();
    const res = await teamsApi(built(), admin, 'PATCH', `/${team._id}`, { members: [] });
    expect(res.statusCode, res.body).toBe(200);
    expect(await idsOn(built(), carer)).toEqual([]);
  });

  it('a device taken out of the team, or the team deleted: gone from the next snapshot', async () => {
    const { carer, team, clock } = await cachedThroughTeam();
    const other = await createDevice(built(), admin);
    expect(
      (await teamsApi(built(), admin, 'PATCH', `/${team._id}`, { deviceIds: [other._id] })).statusCode,
    ).toBe(200);
    const after = await snapshotOf(built(), carer);
    expect(after.devices.map((d) => d._id)).toEqual([other._id]);

    clock.hold(Date.parse(after.at));
    expect((await teamsApi(built(), admin, 'DELETE', `/${team._id}`)).statusCode).toBe(200);
    expect(await idsOn(built(), carer)).toEqual([]);
  });

  it('a removal while the next build is under way (stale-while-revalidate): that build is not taken either', async () => {
    const { carer, device, team, clock } = await cachedThroughTeam();
    const t0 = Date.now();
    // Past half its age: answered with the cached one while a new build starts, before the change.
    clock.hold(t0 + BOARD_SNAPSHOT_MAX_AGE_MS * 0.6);
    expect(await idsOn(built(), carer)).toEqual([device._id]);
    expect((await teamsApi(built(), admin, 'PATCH', `/${team._id}`, { members: [] })).statusCode).toBe(200);
    expect(await idsOn(built(), carer)).toEqual([]);
  });

  it('a device an admin unassigns from a user: gone from their next snapshot', async () => {
    const carer = await signup(built());
    const device = await createDevice(built(), admin, { users: [carer.user._id] });
    const clock = holdClock();
    clock.hold(clock.realNow());
    expect(await idsOn(built(), carer)).toEqual([device._id]);
    const res = await adminPost(built(), `update-device/${device._id}`, admin.auth, {
      deviceName: device.deviceName,
      users: [],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await idsOn(built(), carer)).toEqual([]);

    // And a deleted device, seen through a team.
    const second = await createDevice(built(), admin);
    await teamWith(built(), admin, [second._id], carer);
    clock.hold(clock.realNow());
    expect(await idsOn(built(), carer)).toEqual([second._id]);
    expect((await adminPost(built(), `delete-device/${second._id}`, admin.auth)).statusCode).toBe(200);
    expect(await idsOn(built(), carer)).toEqual([]);
  });
});

/** Two server processes' worth of app on one database and one Redis: a change on A empties B's cached board. */
describe.each(dbTargets())('a cached board on another process, on $name', (target: DbTarget) => {
  const redisUrl = serviceUrl('TEST_REDIS_URL');
  const a = useTestApp(target, { ...quiet, redisUrl });
  let b: BuiltApp | undefined;
  beforeAll(async () => {
    const { config, database } = a().ctx;
    b = await buildApp(testConfig({ ...quiet, jwtSecret: config.jwtSecret, redisUrl }), {
      database: { ...database, close: async () => {} },
    });
    await b.app.ready();
  });
  afterAll(async () => {
    await b?.app.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.skipIf(!redisUrl)('a member removed from a team on A: B stops listing the device at once', async () => {
    const admin = await createAdmin(a());
    const carer = await signup(a());
    const device = await createDevice(a(), admin);
    const team = await teamWith(a(), admin, [device._id], carer);
    const clock = holdClock();
    clock.hold(clock.realNow());
    expect(await idsOn(b!, carer)).toEqual([device._id]);

    expect((await teamsApi(a(), admin, 'PATCH', `/${team._id}`, { members: [] })).statusCode).toBe(200);
    // B hears of it through Redis a moment later. Counted in tries, not by the held clock: a board
    // cached on B is still there after the 2 s this waits, unless the notice dropped it.
    let ids = await idsOn(b!, carer);
    for (let tries = 0; ids.length > 0 && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      ids = await idsOn(b!, carer);
    }
    expect(ids).toEqual([]);
  });
});
