import type { AlertRecord } from '@vitalwatch/shared';
import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { alertEpisodes, alerts } from '../src/db/schema.ts';
import type { Audience } from '../src/lib/events.ts';
import { createDevice, isoFromNow, postAlert, postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, type TestUser, useTestApp } from './helpers.ts';

const MINUTE = 60_000;

describe.each(dbTargets())('alert engine on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });
  const alertsOf = (deviceId: string, alertType?: string) =>
    built()
      .ctx.db.select()
      .from(alerts)
      .where(and(eq(alerts.deviceId, deviceId), alertType ? eq(alerts.alertType, alertType) : undefined))
      .orderBy(asc(alerts.recordedAt));
  /** Conditions raised and not over (pending ones have raised nothing yet). */
  const episodesOf = async (deviceId: string) =>
    (await built().ctx.db.select().from(alertEpisodes).where(eq(alertEpisodes.deviceId, deviceId)))
      .filter((e) => e.phase !== 'pending')
      .map((e) => e.alertType);
  /** Readings `seconds` apart ending `endAgoMs` ago, one value each. */
  const series = (key: 'spo2' | 'heartRate', values: number[], seconds: number, endAgoMs = 1000) =>
    values.map((v, i) => ({
      [key]: v,
      recordedAt: isoFromNow(-endAgoMs - (values.length - 1 - i) * seconds * 1000),
    }));

  it('20 concurrent critical readings raise exactly one high-priority alert', async () => {
    const device = await createDevice(built(), admin);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        postHealth(built(), device.apiAuthCode, { spo2: 90, messageId: `c${i}` }),
      ),
    );
    expect(answers.every((a) => a.statusCode === 202)).toBe(true);
    const raised = await alertsOf(device._id);
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({
      priority: 'high',
      status: 'active',
      alertTitle: 'Critical low blood oxygen',
    });
    expect(await episodesOf(device._id)).toEqual(['LOW_SPO2']);
  });

  it('the episode ends after 30 s clear by the margin, resolving its alert; down again raises anew', async () => {
    const device = await createDevice(built(), admin, { deviceName: "Dad's watch" });
    for (const r of series('spo2', [93, 93, 92, 97, 97, 97], 20, 30_000))
      await postHealth(built(), device.apiAuthCode, r);
    let raised = await alertsOf(device._id);
    expect(raised.map((a) => [a.alertMessage, a.status])).toEqual([
      ["Low blood oxygen: 92% on Dad's watch", 'resolved'],
    ]);
    expect(raised[0]!.details).toEqual({ vital: 'spo2', value: 92, threshold: 95, unit: '%' });
    expect(raised[0]!.resolvedAt).not.toBeNull();
    expect(await episodesOf(device._id)).toEqual([]);
    await postHealth(built(), device.apiAuthCode, { spo2: 89, recordedAt: isoFromNow(-1000) });
    raised = await alertsOf(device._id);
    expect(raised.map((a) => [a.alertMessage, a.priority, a.status])).toEqual([
      ["Low blood oxygen: 92% on Dad's watch", 'medium', 'resolved'],
      ["Critical low blood oxygen: 89% on Dad's watch", 'high', 'active'],
    ]);
  });

  it('an excursion shorter than the delay raises nothing; one inside one batch raises once, resolved', async () => {
    const device = await createDevice(built(), admin);
    await postHealth(built(), device.apiAuthCode, series('heartRate', [72, 120, 125, 72], 10, 200_000));
    expect(await alertsOf(device._id)).toEqual([]);
    await postHealth(built(), device.apiAuthCode, series('heartRate', [120, 125, 128, 126, 80, 80, 80], 15));
    expect((await alertsOf(device._id)).map((a) => [a.alertType, a.status])).toEqual([
      ['HIGH_HEART_RATE', 'resolved'],
    ]);
    expect(await episodesOf(device._id)).toEqual([]);
  });

  it('a late reading older than the newest opens or closes no episode; a late critical one still raises', async () => {
    const device = await createDevice(built(), admin);
    await postHealth(built(), device.apiAuthCode, { spo2: 98, recordedAt: isoFromNow(-1000) });
    await postHealth(built(), device.apiAuthCode, [
      { spo2: 93, recordedAt: isoFromNow(-90_000) },
      { spo2: 93, recordedAt: isoFromNow(-50_000) },
    ]);
    expect(await alertsOf(device._id)).toEqual([]);
    // A buffered critical value is news, though over by now: raised high, stored resolved.
    await postHealth(built(), device.apiAuthCode, { spo2: 85, recordedAt: isoFromNow(-60_000) });
    expect((await alertsOf(device._id)).map((a) => [a.priority, a.status, a.alertTitle])).toEqual([
      ['high', 'resolved', 'Critical low blood oxygen'],
    ]);
    expect(await episodesOf(device._id)).toEqual([]);

    await postHealth(built(), device.apiAuthCode, { battery: 10, recordedAt: isoFromNow(-500) });
    await postHealth(built(), device.apiAuthCode, { battery: 80, recordedAt: isoFromNow(-30_000) });
    expect(await episodesOf(device._id)).toEqual(['BATTERY']);
  });

  it('raises every vital type with a carer-readable title, message and priority', async () => {
    const device = await createDevice(built(), admin, { deviceName: 'Mum' });
    await postHealth(built(), device.apiAuthCode, [
      { heartRate: 45, temperature: 94.12, battery: 15, recordedAt: isoFromNow(-400_000) },
      { heartRate: 45, temperature: 97, recordedAt: isoFromNow(-360_000) },
      { heartRate: 130, temperature: 101.26, battery: 15, recordedAt: isoFromNow(-330_000) },
      { heartRate: 130, recordedAt: isoFromNow(-290_000) },
      { temperature: 101.26, recordedAt: isoFromNow(-180_000) },
      { temperature: 101.26, recordedAt: isoFromNow(-20_000) },
    ]);
    const texts = (await alertsOf(device._id)).map((a) => [a.alertType, a.priority, a.alertMessage]);
    expect(texts).toEqual(
      expect.arrayContaining([
        ['LOW_HEART_RATE', 'medium', 'Low heart rate: 45 BPM on Mum'],
        ['LOW_TEMPERATURE', 'high', 'Critical low body temperature: 94.1 °F on Mum'],
        ['BATTERY', 'low', 'Low battery: 15% on Mum'],
        ['HIGH_HEART_RATE', 'medium', 'High heart rate: 130 BPM on Mum'],
        ['HIGH_TEMPERATURE', 'medium', 'High body temperature: 101.3 °F on Mum'],
      ]),
    );
    expect(texts).toHaveLength(5);
    // Low temperature cleared: 97 °F and above for the 5 min clearing time.
    expect((await episodesOf(device._id)).sort()).toEqual(['BATTERY', 'HIGH_HEART_RATE', 'HIGH_TEMPERATURE']);
  });

  it('FALL and SOS always raise, even while a vital episode is open', async () => {
    const device = await createDevice(built(), admin, { deviceName: 'Grandpa' });
    await postHealth(built(), device.apiAuthCode, { spo2: 90 });
    for (const alertType of ['FALL', 'FALL', 'SOS']) {
      expect((await postAlert(built(), device.apiAuthCode, { alertType })).json().data.accepted).toBe(1);
    }
    expect((await alertsOf(device._id, 'FALL')).map((a) => a.alertMessage)).toEqual([
      'Fall detected on Grandpa',
      'Fall detected on Grandpa',
    ]);
    expect(await alertsOf(device._id, 'SOS')).toHaveLength(1);
    expect((await alertsOf(device._id)).map((a) => a.priority)).toEqual(['high', 'high', 'high', 'high']);
  });

  describe('offline sweep', () => {
    it('raises once for a device silent 15 minutes; its next reading closes the episode', async () => {
      const { user, device } = await userWithDevice(built(), admin, "Dad's watch");
      const received: [Audience, AlertRecord[]][] = [];
      const listener = (a: Audience, r: AlertRecord[]) => {
        if (a.deviceId === device._id) received.push([a, r]);
      };
      built().ctx.events.on('alerts', listener);
      try {
        const last = Date.now() - 20 * MINUTE;
        await postHealth(built(), device.apiAuthCode, { spo2: 97, recordedAt: new Date(last).toISOString() });
        const now = new Date(last + 20 * MINUTE + 5000);
        await Promise.all([
          built().ctx.alertEngine.sweepOffline(now),
          built().ctx.alertEngine.sweepOffline(now),
        ]);
        await built().ctx.alertEngine.sweepOffline(new Date(now.getTime() + MINUTE));
        const offline = await alertsOf(device._id, 'DEVICE_OFFLINE');
        expect(offline.map((a) => [a.alertTitle, a.alertMessage])).toEqual([
          ['Device offline', "Device offline: no data from Dad's watch for 20 minutes"],
        ]);
        expect(received).toHaveLength(1);
        expect(received[0]![0].userIds).toEqual([user.user._id]);
        expect(received[0]![1][0]).toMatchObject({
          alertType: 'DEVICE_OFFLINE',
          isRead: false,
          priority: 'low',
        });

        await postHealth(built(), device.apiAuthCode, { spo2: 97 });
        expect(await episodesOf(device._id)).toEqual([]);
        expect((await alertsOf(device._id, 'DEVICE_OFFLINE'))[0]!.status).toBe('resolved');
        // Silent again later: a new episode, a new alert.
        await built().ctx.alertEngine.sweepOffline(new Date(Date.now() + 16 * MINUTE));
        expect(await alertsOf(device._id, 'DEVICE_OFFLINE')).toHaveLength(2);
      } finally {
        built().ctx.events.off('alerts', listener);
      }
    });

    it('ignores devices never online, inactive, recently heard from, or silent for over a day', async () => {
      const never = await createDevice(built(), admin);
      const inactive = await createDevice(built(), admin);
      const recent = await createDevice(built(), admin);
      const ancient = await createDevice(built(), admin);
      const now = Date.now();
      await postHealth(built(), inactive.apiAuthCode, {
        spo2: 97,
        recordedAt: new Date(now - 20 * MINUTE).toISOString(),
      });
      await built().app.inject({
        method: 'POST',
        url: `/api/v1/admin/change-validity/${inactive._id}`,
        headers: admin.auth,
        payload: { isValid: false },
      });
      await postHealth(built(), recent.apiAuthCode, {
        spo2: 97,
        recordedAt: new Date(now - 10 * MINUTE).toISOString(),
      });
      await postHealth(built(), ancient.apiAuthCode, {
        spo2: 97,
        recordedAt: new Date(now - 25 * 60 * MINUTE).toISOString(),
      });
      await built().ctx.alertEngine.sweepOffline(new Date(now));
      for (const d of [never, inactive, recent, ancient]) {
        expect(await alertsOf(d._id, 'DEVICE_OFFLINE')).toEqual([]);
      }
    });
  });
});
