import { SHARE_MESSAGES } from '@vitalwatch/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminPost } from './admin-helpers.ts';
import { isoFromNow, postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, type TestUser, useTestApp } from './helpers.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.each(dbTargets())('what a share link serves on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;

  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  /** A user, their device with readings now, 30 hours and 10 days ago, and a link to it. */
  async function sharedDevice() {
    const made = await userWithDevice(built(), admin);
    for (const [ago, spo2] of [
      [60_000, 96],
      [30 * HOUR, 90],
      [10 * DAY, 88],
    ] as const) {
      const res = await postHealth(built(), made.device.apiAuthCode, { recordedAt: isoFromNow(-ago), spo2 });
      expect(res.statusCode, res.body).toBe(202);
    }
    const res = await built().app.inject({
      method: 'POST',
      url: '/api/v1/share/create',
      headers: made.user.auth,
      payload: { deviceId: made.device._id, days: 7 },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { ...made, token: res.json<{ data: { token: string } }>().data.token };
  }

  const history = (token: string, payload: object) =>
    built().app.inject({ method: 'POST', url: `/api/v1/shared/${token}/history`, payload });
  const report = (token: string, from: string, to: string) =>
    built().app.inject({ method: 'GET', url: `/api/v1/shared/${token}/report?from=${from}&to=${to}` });
  const open = (token: string) => built().app.inject({ method: 'GET', url: `/api/v1/shared/${token}` });

  it('serves the summary of the last 24 hours, without readings one by one, and refuses older windows', async () => {
    const { token } = await sharedDevice();
    // Both ends from one instant (see the report's test below): the history covers 400 days at most.
    const now = Date.now();
    const wide = await history(token, {
      from: new Date(now - 400 * DAY).toISOString(),
      to: new Date(now).toISOString(),
    });
    expect(wide.statusCode, wide.body).toBe(200);
    const data = wide.json().data;
    expect(Date.parse(data.from)).toBeGreaterThanOrEqual(Date.now() - DAY - 60_000);
    expect(data.summary.readings).toBe(1);
    expect(data.summary.spo2).toEqual([96, 96, 96, 1]);
    expect(data).not.toHaveProperty('buckets');

    const old = await history(token, {
      from: isoFromNow(-10 * DAY - HOUR),
      to: isoFromNow(-10 * DAY + HOUR),
    });
    expect(old.statusCode).toBe(400);
    expect(old.json().message).toBe(SHARE_MESSAGES.outsideWindow);
    const raw = await history(token, { from: isoFromNow(-HOUR), to: isoFromNow(0), points: 2000 });
    expect(raw.statusCode).toBe(400);
  });

  it('serves the report of the last 7 days only, and audits the period it served', async () => {
    const { device, token } = await sharedDevice();
    // Both ends from one instant: read a millisecond apart, they span more than the 90 days an
    // export may cover, and the request is refused before the share's window applies.
    const now = Date.now();
    const wide = await report(token, new Date(now - 90 * DAY).toISOString(), new Date(now).toISOString());
    expect(wide.statusCode, wide.body).toBe(200);
    expect(wide.headers['content-disposition']).toContain(
      `vitalwatch-report-${isoFromNow(-7 * DAY).slice(0, 10)}-`,
    );
    const before = await report(token, isoFromNow(-60 * DAY), isoFromNow(-30 * DAY));
    expect(before.statusCode).toBe(400);
    expect(before.json().message).toBe(SHARE_MESSAGES.outsideWindow);

    const audit = await built().app.inject({
      method: 'GET',
      url: `/api/v1/admin/audit?targetId=${device._id}&action=data-export`,
      headers: admin.auth,
    });
    const [entry] = audit.json().data.entries;
    expect(Date.parse(entry.detail.from)).toBeGreaterThanOrEqual(Date.now() - 7 * DAY - 60_000);
  });

  it('stops serving while its maker no longer has the device, and with the maker or device gone', async () => {
    const { user, device, token } = await sharedDevice();
    const assign = (users: string[]) =>
      adminPost(built(), `update-device/${device._id}`, admin.auth, { deviceName: device.deviceName, users });
    expect((await assign([])).statusCode).toBe(200);
    expect((await open(token)).statusCode).toBe(404);
    expect((await history(token, { from: isoFromNow(-HOUR), to: isoFromNow(0) })).statusCode).toBe(404);
    expect((await report(token, isoFromNow(-DAY), isoFromNow(0))).statusCode).toBe(404);
    expect((await assign([user.user._id])).statusCode).toBe(200);
    expect((await open(token)).statusCode).toBe(200);

    expect((await adminPost(built(), `delete-user/${user.user._id}`, admin.auth)).statusCode).toBe(200);
    expect((await open(token)).statusCode).toBe(404);

    const other = await sharedDevice();
    expect((await adminPost(built(), `delete-device/${other.device._id}`, admin.auth)).statusCode).toBe(200);
    expect((await open(other.token)).statusCode).toBe(404);
  });
});
