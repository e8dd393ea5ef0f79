import {
  BOARD_SPARK_BUCKETS,
  type BoardSnapshot,
  type BoardSnapshotWire,
  type HealthRecord,
  type SocketAck,
  tileOf,
} from '@vitalwatch/shared';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createDevice, isoFromNow, postAlert, postHealth } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, unique, useTestApp } from './helpers.ts';
import { recordEvents, useSockets } from './realtime-helpers.ts';

/** A sparkline slot: 3 minutes. */
const SLOT_MS = 180_000;

const reading = (heartRate: number, msAgo = 0) => ({
  heartRate,
  spo2: 97,
  temperature: 98.1,
  battery: 64,
  recordedAt: isoFromNow(-msAgo),
});

/** Issue 25, points 2 and 4: the board's one-call snapshot and its coalesced live feed. */
describe.each(dbTargets())('care board on $name', (target) => {
  // No background work (sweeps, escalations, the notification outbox's worker) between the queries counted.
  const built = useTestApp(target, {
    ingest: { offlineSweepIntervalMs: 0, escalationIntervalMs: 0 },
    notifications: { pollMs: 0 },
  });
  const connect = useSockets(built);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });
  const snapshot = async (user: TestUser): Promise<BoardSnapshot> => {
    const res = await built().app.inject({
      method: 'GET',
      url: '/api/v1/board/snapshot',
      headers: user.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    const sent = res.json().data as BoardSnapshotWire;
    return { ...sent, devices: sent.devices.map(tileOf) };
  };
  const teamOf = async (deviceIds: string[], userIds: string[]) => {
    const res = await built().app.inject({
      method: 'POST',
      url: '/api/v1/admin/teams',
      headers: admin.auth,
      payload: {
        name: unique('Board '),
        deviceIds,
        members: userIds.map((userId) => ({ userId, role: 'primary' })),
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.team._id as string;
  };

  it("returns every visible device's newest reading, last hour and open alerts; nobody else's", async () => {
    const [carer, other] = await Promise.all([signup(built()), signup(built())]);
    const own = await createDevice(built(), admin, { users: [carer.user._id], deviceName: unique('Own ') });
    const ward = await createDevice(built(), admin, { deviceName: unique('Ward ') });
    const silent = await createDevice(built(), admin, { deviceName: unique('Silent ') });
    const hidden = await createDevice(built(), admin, { users: [other.user._id] });
    const teamId = await teamOf([ward._id, silent._id], [carer.user._id]);

    await postHealth(built(), ward.apiAuthCode, [
      reading(70, 20 * 60_000),
      reading(80, 5 * 60_000),
      reading(90, 1000),
    ]);
    await postHealth(built(), own.apiAuthCode, reading(66, 2000));
    await postHealth(built(), hidden.apiAuthCode, reading(50));
    await postAlert(built(), ward.apiAuthCode, { alertType: 'SOS' });
    await built().ctx.ingest.drain();

    const board = await snapshot(carer);
    expect(board.teams).toEqual([{ _id: teamId, name: expect.any(String) }]);
    const byId = new Map(board.devices.map((d) => [d._id, d]));
    expect([...byId.keys()].sort()).toEqual([own._id, ward._id, silent._id].sort());
    const w = byId.get(ward._id)!;
    expect(w).toMatchObject({ deviceName: ward.deviceName, teamIds: [teamId], limits: null });
    expect(w.latest).toMatchObject({ heartRate: 90 });
    expect(w.alerts).toHaveLength(1);
    expect(w.alerts[0]).toMatchObject({ alertType: 'SOS', priority: 'high', status: 'active' });
    expect(w.sparkline).toHaveLength(BOARD_SPARK_BUCKETS);
    expect(w.sparkline.filter((v) => v !== null).length).toBeGreaterThanOrEqual(2);
    expect(byId.get(own._id)).toMatchObject({ teamIds: [], latest: { heartRate: 66 }, alerts: [] });
    expect(byId.get(silent._id)).toMatchObject({ latest: null, alerts: [] });
    expect(byId.get(silent._id)!.sparkline.every((v) => v === null)).toBe(true);

    expect((await built().app.inject({ method: 'GET', url: '/api/v1/board/snapshot' })).statusCode).toBe(401);
    expect((await snapshot(admin)).devices).toEqual([]);
  });

  it("draws the last hour's heart rate in 3-minute slots, each the rounded mean of its readings", async () => {
    const carer = await signup(built());
    const device = await createDevice(built(), admin, { users: [carer.user._id] });
    // On the slots' 3-minute grid: the last slot ends at the snapshot's time.
    const at = new Date(Math.floor(Date.now() / SLOT_MS) * SLOT_MS);
    const before = (heartRate: number, ms: number) => ({
      ...reading(heartRate),
      recordedAt: new Date(at.getTime() - ms).toISOString(),
    });
    await postHealth(built(), device.apiAuthCode, [
      before(70, 20 * 60_000 - 10_000),
      before(71, 20 * 60_000 - 20_000),
      before(80, 5 * 60_000 - 5_000),
      before(90, 60_000 - 1_000),
      before(93, 60_000 - 2_000),
      before(120, 61 * 60_000),
    ]);
    await built().ctx.ingest.drain();
    const board = await built().ctx.board.snapshot(carer.user._id, at);
    const expected: (number | null)[] = new Array(BOARD_SPARK_BUCKETS).fill(null);
    // 20 minutes before: slot 13 of 20 (70.5 rounds up); 5 minutes: slot 18; the last minute: 19 (91.5).
    expected[13] = 71;
    expected[18] = 80;
    expected[19] = 92;
    expect(board.devices.find((d) => d._id === device._id)?.sparkline).toEqual(expected);
  });

  it('keeps finished slots between builds, reads those still filling, and all of them again after 5 minutes', async () => {
    const carer = await signup(built());
    const device = await createDevice(built(), admin, { users: [carer.user._id] });
    const grid = Math.floor(Date.now() / SLOT_MS) * SLOT_MS;
    const t1 = grid - 570_000;
    const at = (heartRate: number, time: number) => ({
      ...reading(heartRate),
      recordedAt: new Date(time).toISOString(),
    });
    const line = async (time: number) => {
      await built().ctx.ingest.drain();
      const board = await built().ctx.board.snapshot(carer.user._id, new Date(time));
      return board.devices.find((d) => d._id === device._id)?.sparkline;
    };
    const expected = (values: Record<number, number>) =>
      Array.from({ length: BOARD_SPARK_BUCKETS }, (_, i) => values[i] ?? null);

    // At t1: a finished slot (70), and the one still filling (80).
    await postHealth(built(), device.apiAuthCode, [at(70, t1 - 300_000), at(80, t1 - 20_000)]);
    expect(await line(t1)).toEqual(expected({ 18: 70, 19: 80 }));
    // Then: the filling slot gets another reading; the finished one a late reading, not read for now.
    await postHealth(built(), device.apiAuthCode, [at(100, t1 + 20_000), at(50, t1 - 299_000)]);
    expect(await line(t1 + 240_000)).toEqual(expected({ 16: 70, 17: 90 }));
    // Five minutes on, the hour is read in full again: the late reading counts.
    expect(await line(t1 + 360_000)).toEqual(expected({ 16: 60, 17: 90 }));
  });

  it('makes the same number of queries for 2 devices as for 40', async () => {
    const [few, many] = await Promise.all([signup(built()), signup(built())]);
    const devicesFor = async (n: number) =>
      Promise.all(Array.from({ length: n }, () => createDevice(built(), admin)));
    const small = await devicesFor(2);
    const large = await devicesFor(40);
    await teamOf(
      small.map((d) => d._id),
      [few.user._id],
    );
    await teamOf(
      large.map((d) => d._id),
      [many.user._id],
    );
    await Promise.all([...small, ...large].map((d) => postHealth(built(), d.apiAuthCode, reading(72, 1000))));
    await built().ctx.ingest.drain();

    const session = (built().ctx.db as unknown as { _: { session: { prepareQuery: () => unknown } } })._
      .session;
    const counted = async (user: TestUser) => {
      const spy = vi.spyOn(session, 'prepareQuery');
      try {
        const board = await snapshot(user);
        return { devices: board.devices.length, queries: spy.mock.calls.length };
      } finally {
        spy.mockRestore();
      }
    };
    const a = await counted(few);
    const b = await counted(many);
    expect(a.devices).toBe(2);
    expect(b.devices).toBe(40);
    expect(b.queries).toBe(a.queries);
    expect(a.queries).toBeGreaterThan(0);
    expect(a.queries).toBeLessThanOrEqual(8);
  });

  it("coalesces a board socket's readings: one batch a second with each device's newest, no per-reading events", async () => {
    const carer = await signup(built());
    const boardSocket = await connect({ token: carer.accessToken });
    const plainSocket = await connect({ token: carer.accessToken });
    const ack: SocketAck = await boardSocket.emitWithAck('watch-board', true);
    expect(ack.success).toBe(true);
    const batches = recordEvents(boardSocket, 'boardUpdate');
    const boardEach = recordEvents(boardSocket, 'healthDataUpdate');
    const plainEach = recordEvents(plainSocket, 'healthDataUpdate');
    const record = (device: string, heartRate: number, at: number): HealthRecord => ({
      _id: `${device}-${heartRate}`,
      device,
      spo2: 97,
      heartRate,
      temperature: 98,
      battery: 80,
      createdAt: new Date(at).toISOString(),
    });
    const t0 = Date.now();
    const audience = (deviceId: string) => ({ deviceId, userIds: [carer.user._id], contactIds: [] });
    for (let i = 0; i < 5; i++)
      built().ctx.events.emit('health', audience('dev-a'), [record('dev-a', 60 + i, t0 + i)]);
    for (let i = 0; i < 3; i++)
      built().ctx.events.emit('health', audience('dev-b'), [record('dev-b', 80 + i, t0 + i)]);

    const [batch] = await batches.waitFor(1, 3000);
    expect(batch!.map((r) => [r.device, r.heartRate]).sort()).toEqual([
      ['dev-a', 64],
      ['dev-b', 82],
    ]);
    await plainEach.waitFor(8);
    expect(boardEach.received).toEqual([]);

    // Off the board, every reading again.
    expect((await boardSocket.emitWithAck('watch-board', false)).success).toBe(true);
    built().ctx.events.emit('health', audience('dev-a'), [record('dev-a', 99, t0 + 10)]);
    await boardEach.waitFor(1);
    expect((await boardSocket.emitWithAck('watch-board', 'yes' as unknown as boolean)).success).toBe(false);
  });
});
