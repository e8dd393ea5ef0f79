import type { AlertRecord } from '@vitalwatch/shared';
import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { alertEpisodes, alerts } from '../src/db/schema.ts';
import type { Audience } from '../src/lib/events.ts';
import { walkEpisodes } from '../src/modules/alert/episodes.ts';
import { formatValue } from '../src/modules/alert/rules.ts';
import { createDevice, isoFromNow, postAlert, postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, type TestUser, useTestApp } from './helpers.ts';

const MINUTE = 60_000;
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const reading = (minute: number, v: { spo2?: number; heartRate?: number; battery?: number }) => ({
  recordedAt: at(minute),
  spo2: v.spo2 ?? null,
  heartRate: v.heartRate ?? null,
  temperature: null,
  battery: v.battery ?? null,
});

describe('episode walk (pure)', () => {
  it('raises once per excursion, whether readings come one by one or together', () => {
    const readings = [
      reading(0, { spo2: 97 }),
      reading(1, { spo2: 91 }),
      reading(2, { spo2: 90 }),
      reading(3, { spo2: 96 }),
      reading(4, { spo2: 92 }),
    ];
    const together = walkEpisodes(new Set(), readings);
    expect(together.raises.map((r) => [r.rule.type, r.value, r.opensEpisode])).toEqual([
      ['LOW_SPO2', 91, false],
      ['LOW_SPO2', 92, true],
    ]);
    expect(together.open).toEqual(['LOW_SPO2']);
    expect(together.close).toEqual([]);

    let open = new Set<string>();
    let raised = 0;
    for (const r of readings) {
      const step = walkEpisodes(open, [r]);
      raised += step.raises.length;
      open = new Set([...[...open].filter((t) => !step.close.includes(t as never)), ...step.open]);
    }
    expect(raised).toBe(2);
    expect([...open]).toEqual(['LOW_SPO2']);
  });

  it('keeps an open episode quiet, closes it back in range, ignores missing values', () => {
    const open = new Set(['LOW_SPO2', 'BATTERY']);
    const walk = walkEpisodes(open, [reading(0, { spo2: 90, heartRate: 120 }), reading(1, { spo2: 99 })]);
    expect(walk.raises.map((r) => r.rule.type)).toEqual(['HIGH_HEART_RATE']);
    expect(walk.close).toEqual(['LOW_SPO2']);
    expect(walk.open).toEqual(['HIGH_HEART_RATE']);
  });

  it('treats the normal-range bounds as normal', () => {
    const bounds = [
      { ...reading(0, { spo2: 95, heartRate: 60, battery: 20 }), temperature: 95 },
      { ...reading(1, { heartRate: 100 }), temperature: 98.4 },
    ];
    expect(walkEpisodes(new Set(), bounds).raises).toEqual([]);
  });

  it('formats values with at most one decimal', () => {
    expect([91, 101.26, 98.4, 15.04].map(formatValue)).toEqual(['91', '101.3', '98.4', '15']);
  });
});

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
  const episodesOf = async (deviceId: string) =>
    (await built().ctx.db.select().from(alertEpisodes).where(eq(alertEpisodes.deviceId, deviceId))).map(
      (e) => e.alertType,
    );

  it('20 concurrent abnormal readings raise exactly one alert', async () => {
    const device = await createDevice(built(), admin);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        postHealth(built(), device.apiAuthCode, { spo2: 90, messageId: `c${i}` }),
      ),
    );
    expect(answers.every((a) => a.statusCode === 202)).toBe(true);
    expect(await alertsOf(device._id)).toHaveLength(1);
    expect(await episodesOf(device._id)).toEqual(['LOW_SPO2']);
  });

  it('back in range closes the episode; abnormal again raises a second alert', async () => {
    const device = await createDevice(built(), admin, { deviceName: "Dad's watch" });
    await postHealth(built(), device.apiAuthCode, { spo2: 91, recordedAt: isoFromNow(-3000) });
    await postHealth(built(), device.apiAuthCode, { spo2: 90, recordedAt: isoFromNow(-2500) });
    expect(await alertsOf(device._id)).toHaveLength(1);
    await postHealth(built(), device.apiAuthCode, { spo2: 97, recordedAt: isoFromNow(-2000) });
    expect(await episodesOf(device._id)).toEqual([]);
    await postHealth(built(), device.apiAuthCode, { spo2: 89, recordedAt: isoFromNow(-1000) });
    const raised = await alertsOf(device._id);
    expect(raised.map((a) => a.alertMessage)).toEqual([
      "Low blood oxygen: 91% on Dad's watch",
      "Low blood oxygen: 89% on Dad's watch",
    ]);
    expect(raised[0]!.details).toEqual({ vital: 'spo2', value: 91, threshold: 95, unit: '%' });
  });

  it('an excursion inside one batch raises once and leaves no episode open', async () => {
    const device = await createDevice(built(), admin);
    await postHealth(built(), device.apiAuthCode, [
      { heartRate: 130, recordedAt: isoFromNow(-2000) },
      { heartRate: 70, recordedAt: isoFromNow(-1000) },
      { heartRate: 72, recordedAt: isoFromNow(-3000) },
    ]);
    expect((await alertsOf(device._id)).map((a) => a.alertType)).toEqual(['HIGH_HEART_RATE']);
    expect(await episodesOf(device._id)).toEqual([]);
  });

  it('a late reading older than the newest does not open or close episodes', async () => {
    const device = await createDevice(built(), admin);
    await postHealth(built(), device.apiAuthCode, { spo2: 98, recordedAt: isoFromNow(-1000) });
    await postHealth(built(), device.apiAuthCode, { spo2: 85, recordedAt: isoFromNow(-60_000) });
    expect(await alertsOf(device._id)).toEqual([]);

    await postHealth(built(), device.apiAuthCode, { battery: 10, recordedAt: isoFromNow(-500) });
    await postHealth(built(), device.apiAuthCode, { battery: 80, recordedAt: isoFromNow(-30_000) });
    expect(await episodesOf(device._id)).toEqual(['BATTERY']);
  });

  it('raises every vital type with a carer-readable title and message', async () => {
    const device = await createDevice(built(), admin, { deviceName: 'Mum' });
    await postHealth(built(), device.apiAuthCode, {
      heartRate: 45,
      temperature: 94.12,
      battery: 15,
      recordedAt: isoFromNow(-2000),
    });
    await postHealth(built(), device.apiAuthCode, {
      heartRate: 130,
      temperature: 101.26,
      battery: 15,
      recordedAt: isoFromNow(-1000),
    });
    const texts = (await alertsOf(device._id)).map((a) => [a.alertType, a.alertTitle, a.alertMessage]);
    expect(texts).toEqual(
      expect.arrayContaining([
        ['LOW_HEART_RATE', 'Low heart rate', 'Low heart rate: 45 BPM on Mum'],
        ['LOW_TEMPERATURE', 'Low body temperature', 'Low body temperature: 94.1 °F on Mum'],
        ['BATTERY', 'Low battery', 'Low battery: 15% on Mum'],
        ['HIGH_HEART_RATE', 'High heart rate', 'High heart rate: 130 BPM on Mum'],
        ['HIGH_TEMPERATURE', 'High body temperature', 'High body temperature: 101.3 °F on Mum'],
      ]),
    );
    expect(texts).toHaveLength(5);
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
        expect(received[0]![1][0]).toMatchObject({ alertType: 'DEVICE_OFFLINE', isRead: false });

        await postHealth(built(), device.apiAuthCode, { spo2: 97 });
        expect(await episodesOf(device._id)).toEqual([]);
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
