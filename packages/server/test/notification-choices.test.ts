import { randomUUID } from 'node:crypto';
import type { AlertRecord } from '@vitalwatch/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { createDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, type TestUser, useTestApp } from './helpers.ts';
import { alertRecord, PEER_ENDPOINTS, queueAlerts, usePushPeer, userWithBrowsers } from './push-fixtures.ts';
import { type Subscriber, selfSignedCert } from './push-peer.ts';

const identity = selfSignedCert();
const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:push-test@vitalwatch.test' };

/** A quiet-hours window around now, in UTC: [now − 1 h, now + 1 h). */
function windowAroundNow() {
  const hh = (d: Date) => d.toISOString().slice(11, 14).concat('00');
  return {
    start: hh(new Date(Date.now() - 3600_000)),
    end: hh(new Date(Date.now() + 3600_000)),
    timeZone: 'UTC',
  };
}

describe.each(dbTargets())('snoozes and quiet hours are personal on $name', (target) => {
  const built = useTestApp(
    target,
    { vapid, ...PEER_ENDPOINTS },
    { push: { ca: identity.cert, baseDelayMs: 20 } },
  );
  const peer = usePushPeer(identity);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  async function twoCarers() {
    const [a, b] = [peer().subscriber(), peer().subscriber()];
    const ann = await userWithBrowsers(built(), a);
    const bob = await userWithBrowsers(built(), b);
    const device = await createDevice(built(), admin, { users: [ann.user._id, bob.user._id] });
    return { ann, bob, a, b, device };
  }

  const post = (user: TestUser, url: string, payload: object) =>
    built().app.inject({ method: 'POST', url, headers: user.auth, payload });

  /** Push these alerts to both carers and say which browsers received which alert ids. */
  async function deliver(carers: TestUser[], browsers: Subscriber[], alerts: AlertRecord[]) {
    const before = browsers.map((s) => peer().requestsTo(s.endpoint).length);
    const ids = carers.map((c) => c.user._id);
    await queueAlerts(built(), ids, alerts);
    await built().ctx.outbox.idle();
    return browsers.map((s, i) =>
      peer()
        .requestsTo(s.endpoint)
        .slice(before[i])
        .map((r) => JSON.parse(s.decrypt(r.body)).alertId as string),
    );
  }

  it('a snooze silences its device type for that carer only, never a high-priority alert', async () => {
    const { ann, bob, a, b, device } = await twoCarers();
    const snoozed = await post(ann, '/api/v1/alert/snooze', {
      deviceId: device._id,
      alertType: 'LOW_SPO2',
      minutes: 30,
    });
    expect(snoozed.statusCode).toBe(200);
    const until = Date.parse(snoozed.json().data.snooze.until);
    expect(until - Date.now()).toBeGreaterThan(29 * 60_000);

    const medium = alertRecord(device._id, 'LOW_SPO2');
    const otherType = alertRecord(device._id, 'HIGH_HEART_RATE');
    const critical = alertRecord(device._id, 'LOW_SPO2', { priority: 'high' });
    const [toAnn, toBob] = await deliver([ann, bob], [a, b], [medium, otherType, critical]);
    expect(toAnn!.sort()).toEqual([otherType._id, critical._id].sort());
    expect(toBob!.sort()).toEqual([medium._id, otherType._id, critical._id].sort());

    const list = await post(ann, '/api/v1/alert/snoozes', {});
    expect(list.json().data.snoozes).toEqual([
      { device: device._id, deviceName: device.deviceName, alertType: 'LOW_SPO2', until: expect.any(String) },
    ]);
    expect((await post(bob, '/api/v1/alert/snoozes', {})).json().data.snoozes).toEqual([]);
    await post(ann, '/api/v1/alert/unsnooze', { deviceId: device._id, alertType: 'LOW_SPO2' });
    const [again] = await deliver([ann], [a], [alertRecord(device._id, 'LOW_SPO2')]);
    expect(again).toHaveLength(1);
  });

  it('FALL and SOS cannot be snoozed; bad lengths and other devices are refused', async () => {
    const { ann, device } = await twoCarers();
    for (const alertType of ['FALL', 'SOS']) {
      const res = await post(ann, '/api/v1/alert/snooze', { deviceId: device._id, alertType, minutes: 15 });
      expect(res.statusCode).toBe(400);
      expect(res.json().issues).toEqual([
        { path: 'alertType', message: 'FALL and SOS alerts cannot be snoozed' },
      ]);
    }
    const odd = await post(ann, '/api/v1/alert/snooze', {
      deviceId: device._id,
      alertType: 'LOW_SPO2',
      minutes: 45,
    });
    expect(odd.statusCode).toBe(400);
    expect(odd.json().issues[0].path).toBe('minutes');
    const other = await createDevice(built(), admin);
    expect(
      (await post(ann, '/api/v1/alert/snooze', { deviceId: other._id, alertType: 'LOW_SPO2', minutes: 15 }))
        .statusCode,
    ).toBe(404);
    const anonymous = await built().app.inject({ method: 'POST', url: '/api/v1/alert/snoozes' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('quiet hours hold low-priority alerts for that carer only; medium and high come through', async () => {
    const { ann, bob, a, b, device } = await twoCarers();
    const set = await post(ann, '/api/v1/user/quiet-hours', { quietHours: windowAroundNow() });
    expect(set.statusCode).toBe(200);
    expect(set.json().data.user.quietHours).toEqual(windowAroundNow());
    const low = alertRecord(device._id, 'BATTERY');
    const medium = alertRecord(device._id, 'HIGH_HEART_RATE');
    const high = alertRecord(device._id, 'SOS');
    const [toAnn, toBob] = await deliver([ann, bob], [a, b], [low, medium, high]);
    expect(toAnn!.sort()).toEqual([medium._id, high._id].sort());
    expect(toBob).toHaveLength(3);

    const bad = await post(ann, '/api/v1/user/quiet-hours', {
      quietHours: { start: '25:00', end: '07:00', timeZone: 'Mars/Olympus' },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .issues.map((i: { path: string }) => i.path)
        .sort(),
    ).toEqual(['quietHours.start', 'quietHours.timeZone']);
    const off = await post(ann, '/api/v1/user/quiet-hours', { quietHours: null });
    expect(off.json().data.user.quietHours).toBeNull();
    const [later] = await deliver([ann], [a], [alertRecord(device._id, 'BATTERY', { _id: randomUUID() })]);
    expect(later).toHaveLength(1);
  });
});
