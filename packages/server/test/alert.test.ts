import type { AlertRecord } from '@vitalwatch/shared';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { isoFromNow, postAlert, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';

interface Page {
  alerts: AlertRecord[];
  nextCursor: string | null;
  total: number;
  unreadCount: number;
}

describe.each(dbTargets())('alert API on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  const inject = (opts: InjectOptions) => built().app.inject(opts);
  let admin: TestUser;
  /** Two carers share device A; the first also has device B; a stranger has device C. */
  let carer: TestUser;
  let partner: TestUser;
  let stranger: TestUser;
  let deviceA: string;
  let deviceB: string;
  /** recordedAt of the 12 alerts on A (newest first) and the 3 on B. */
  const timesA = Array.from({ length: 12 }, (_, i) => isoFromNow(-(i + 1) * 60_000));
  const timesB = Array.from({ length: 3 }, (_, i) => isoFromNow(-(i + 1) * 60_000 - 30_000));

  beforeAll(async () => {
    admin = await createAdmin(built());
    const a = await userWithDevice(built(), admin, 'Watch A');
    carer = a.user;
    deviceA = a.device._id;
    partner = await signup(built());
    await inject({
      method: 'POST',
      url: '/api/v1/device/add-device',
      headers: partner.auth,
      payload: { data: { activationCode: a.device.activationCode } },
    });
    const b = await userWithDevice(built(), admin, 'Watch B');
    deviceB = b.device._id;
    await inject({
      method: 'POST',
      url: '/api/v1/device/add-device',
      headers: carer.auth,
      payload: { data: { activationCode: b.device.activationCode } },
    });
    const c = await userWithDevice(built(), admin, 'Watch C');
    stranger = c.user;
    await postAlert(
      built(),
      a.device.apiAuthCode,
      timesA.map((recordedAt) => ({ alertType: 'FALL', recordedAt })),
    );
    await postAlert(
      built(),
      b.device.apiAuthCode,
      timesB.map((recordedAt) => ({ alertType: 'SOS', recordedAt })),
    );
    await postAlert(built(), c.device.apiAuthCode, { alertType: 'SOS' });
  });

  const latest = (user: TestUser | undefined, count: string | number) =>
    inject({ method: 'POST', url: `/api/v1/alert/latest/${count}`, headers: user?.auth ?? {} });
  const all = (user: TestUser | undefined, payload?: object) =>
    inject({
      method: 'POST',
      url: '/api/v1/alert/all',
      headers: user?.auth ?? {},
      ...(payload ? { payload } : {}),
    });
  const page = async (user: TestUser, payload?: object): Promise<Page> => {
    const res = await all(user, payload);
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };
  const markRead = (user: TestUser | undefined, alerts: unknown) =>
    inject({
      method: 'POST',
      url: '/api/v1/alert/mark-read',
      headers: user?.auth ?? {},
      payload: { data: { alerts } },
    });

  it('latest/:count returns the newest arrivals of the caller’s devices only, device time within one arrival', async () => {
    const res = await latest(carer, 4);
    expect(res.statusCode).toBe(200);
    const alerts: AlertRecord[] = res.json().data.alerts;
    // B's three arrived after A's twelve.
    expect(alerts.map((a) => a.createdAt)).toEqual([...timesB, timesA[0]]);
    expect(alerts[3]).toMatchObject({
      device: deviceA,
      deviceName: 'Watch A',
      alertType: 'FALL',
      alertTitle: 'Fall detected',
      alertMessage: 'Fall detected on Watch A',
      isRead: false,
    });
    expect((await latest(carer, 100)).json().data.alerts).toHaveLength(15);
    expect((await latest(partner, 100)).json().data.alerts).toHaveLength(12);
    expect((await latest(admin, 5)).json().data.alerts).toEqual([]);
  });

  it('a late SOS (buffered for ten minutes) is on top of latest, and in device-time place in the history', async () => {
    const late = await userWithDevice(built(), admin, 'Watch L');
    await postAlert(built(), late.device.apiAuthCode, { alertType: 'FALL', recordedAt: isoFromNow(-60_000) });
    await postAlert(built(), late.device.apiAuthCode, { alertType: 'SOS', recordedAt: isoFromNow(-600_000) });
    const [first, second] = (await latest(late.user, 2)).json().data.alerts as AlertRecord[];
    expect([first?.alertType, second?.alertType]).toEqual(['SOS', 'FALL']);
    expect(Date.parse(first!.receivedAt)).toBeGreaterThan(Date.parse(first!.createdAt));
    const history = await page(late.user);
    expect(history.alerts.map((a) => a.alertType)).toEqual(['FALL', 'SOS']);
  });

  it('latest/:count takes the newest arrivals whichever devices they are on, however many each has', async () => {
    const busy = await userWithDevice(built(), admin, 'Watch Busy');
    const quiet = await userWithDevice(built(), admin, 'Watch Quiet');
    await inject({
      method: 'POST',
      url: '/api/v1/device/add-device',
      headers: busy.user.auth,
      payload: { data: { activationCode: quiet.device.activationCode } },
    });
    await postAlert(built(), quiet.device.apiAuthCode, {
      alertType: 'SOS',
      recordedAt: isoFromNow(-3_600_000),
    });
    // Thirty arrivals on one device after the other's one, each its own batch.
    for (let i = 0; i < 30; i++) {
      await postAlert(built(), busy.device.apiAuthCode, {
        alertType: 'FALL',
        recordedAt: isoFromNow(-i * 1000),
      });
    }
    const newest = (await latest(busy.user, 20)).json().data.alerts as AlertRecord[];
    expect(newest).toHaveLength(20);
    expect(new Set(newest.map((a) => a.device))).toEqual(new Set([busy.device._id]));
    const arrivals = newest.map((a) => Date.parse(a.receivedAt));
    expect(arrivals).toEqual([...arrivals].sort((x, y) => y - x));
    const everything = (await latest(busy.user, 100)).json().data.alerts as AlertRecord[];
    expect(everything).toHaveLength(31);
    expect(everything.at(-1)).toMatchObject({ device: quiet.device._id, alertType: 'SOS' });
    expect(everything.slice(0, 20)).toEqual(newest);
  });

  it('latest/:count answers 400 outside 1–100 and 401 without a token', async () => {
    for (const count of [0, 101, 'abc', 1.5]) {
      const res = await latest(carer, count);
      expect(res.statusCode, String(count)).toBe(400);
      expect(res.json().issues[0].path).toBe('count');
    }
    expect((await latest(undefined, 3)).statusCode).toBe(401);
  });

  it('all pages newest first with a keyset cursor, and counts every match', async () => {
    const first = await page(carer, { limit: 6 });
    expect(first.total).toBe(15);
    expect(first.unreadCount).toBe(15);
    const second = await page(carer, { limit: 6, cursor: first.nextCursor });
    const third = await page(carer, { limit: 6, cursor: second.nextCursor });
    expect(third.nextCursor).toBeNull();
    // Every page carries the counts of its filter, not of what is left after its cursor.
    for (const later of [second, third]) expect(later).toMatchObject({ total: 15, unreadCount: 15 });
    const seen = [...first.alerts, ...second.alerts, ...third.alerts].map((a) => a.createdAt);
    expect(seen).toEqual([...timesA, ...timesB].sort().reverse());
    expect((await page(carer)).alerts).toHaveLength(15);
  });

  it('all filters by device and time range', async () => {
    const onlyB = await page(carer, { deviceId: deviceB });
    expect(onlyB.alerts.map((a) => a.device)).toEqual([deviceB, deviceB, deviceB]);
    expect(onlyB.total).toBe(3);
    const ranged = await page(carer, { deviceId: deviceA, from: timesA[4], to: timesA[2] });
    expect(ranged.alerts.map((a) => a.createdAt)).toEqual([timesA[2], timesA[3], timesA[4]]);
    expect(ranged.total).toBe(3);
  });

  it('all answers 404 for a device the caller may not see, 400 for bad input, 401 without a token', async () => {
    expect((await all(stranger, { deviceId: deviceA })).statusCode).toBe(404);
    expect((await all(carer, { deviceId: 'nope' })).statusCode).toBe(404);
    const cursor = await all(carer, { cursor: 'garbage' });
    expect(cursor.statusCode).toBe(400);
    expect(cursor.json().issues).toEqual([{ path: 'cursor', message: 'Invalid cursor' }]);
    expect((await all(carer, { limit: 0 })).json().issues[0].path).toBe('limit');
    expect((await all(carer, { from: timesA[0], to: timesA[5] })).statusCode).toBe(400);
    expect((await all(carer, { colour: 'red' })).statusCode).toBe(400);
    expect((await all(undefined)).statusCode).toBe(401);
  });

  it('mark-read is per user: only the caller’s alerts, already-read ones untouched', async () => {
    const carerAlerts = (await page(carer, { deviceId: deviceA })).alerts;
    const [one, two] = carerAlerts;
    const strangerAlert = (await page(stranger)).alerts[0]!;

    const res = await markRead(carer, [one!._id, two!._id, strangerAlert._id, 'not-an-id', one!._id]);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.alerts.sort()).toEqual([one!._id, two!._id].sort());
    // Already read: nothing marked again.
    expect((await markRead(carer, [one!._id])).json().data.alerts).toEqual([]);

    const forCarer = await page(carer, { deviceId: deviceA });
    expect(
      forCarer.alerts
        .filter((a) => a.isRead)
        .map((a) => a._id)
        .sort(),
    ).toEqual([one!._id, two!._id].sort());
    expect(forCarer.unreadCount).toBe(10);
    // The partner watches the same device, but read state is theirs.
    const forPartner = await page(partner);
    expect(forPartner.unreadCount).toBe(12);
    expect(forPartner.alerts.every((a) => !a.isRead)).toBe(true);
    // The stranger's alert is still unread for the stranger.
    expect((await page(stranger)).alerts[0]!.isRead).toBe(false);
  });

  it('mark-read answers 400 for an empty list and 401 without a token', async () => {
    const empty = await markRead(carer, []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().issues[0].path).toBe('data.alerts');
    expect((await markRead(undefined, ['x'])).statusCode).toBe(401);
  });

  it('all filters by status and priority, alone and with the others, each shape its own statement', async () => {
    const onB = await page(carer, { deviceId: deviceB });
    const resolved = await inject({
      method: 'POST',
      url: `/api/v1/alert/resolve/${onB.alerts[1]!._id}`,
      headers: carer.auth,
    });
    expect(resolved.statusCode).toBe(200);
    const done = await page(carer, { status: 'resolved' });
    expect(done.alerts.map((a) => a._id)).toEqual([onB.alerts[1]!._id]);
    // The page's times are text PostgreSQL writes (`isoTime`), the action's answer a Date written
    // by JavaScript: the same text.
    expect(done.alerts[0]!.resolved).toEqual(resolved.json().data.alert.resolved);
    expect(done.alerts[0]!.resolved?.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(done.total).toBe(1);
    const open = await page(carer, { status: 'active', deviceId: deviceB, sort: 'priority', limit: 1 });
    expect(open.alerts.map((a) => a.createdAt)).toEqual([timesB[0]]);
    expect(open.total).toBe(2);
    const next = await page(carer, {
      status: 'active',
      deviceId: deviceB,
      sort: 'priority',
      limit: 1,
      cursor: open.nextCursor,
    });
    expect(next.alerts.map((a) => a.createdAt)).toEqual([timesB[2]]);
    expect(next.nextCursor).toBeNull();
    expect((await page(carer, { priority: 'high' })).total).toBe(15);
    const low = await page(carer, { priority: 'low', from: timesA[11], to: timesB[0] });
    expect(low).toMatchObject({ alerts: [], total: 0, unreadCount: 0, nextCursor: null });
  });
});
