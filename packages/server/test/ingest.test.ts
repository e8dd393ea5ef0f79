import type { AlertRecord, HealthRecord } from '@vitalwatch/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Audience } from '../src/lib/events.ts';
import {
  countRows,
  createDevice,
  isoFromNow,
  postAlert,
  postHealth,
  userWithDevice,
} from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';

describe.each(dbTargets())('HTTP ingestion on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });
  const fetchHealth = async (user: TestUser, deviceId: string) =>
    (
      await built().app.inject({
        method: 'POST',
        url: `/api/v1/health/fetch/${deviceId}`,
        headers: user.auth,
      })
    ).json<{ data: { healthData: HealthRecord[] } }>().data.healthData;
  const lastUpdate = async (user: TestUser) =>
    (
      await built().app.inject({ method: 'POST', url: '/api/v1/device/get-device', headers: user.auth })
    ).json<{ data: { devices: { lastUpdate: string | null }[] } }>().data.devices[0]?.lastUpdate;

  it('stores one reading and answers 202 with accepted/duplicates after commit', async () => {
    const { user, device } = await userWithDevice(built(), admin);
    const res = await postHealth(built(), device.apiAuthCode, {
      messageId: 'm-1',
      spo2: 98,
      heartRate: 72,
      temperature: 97.7,
      battery: 88,
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ success: true, message: 'Accepted', data: { accepted: 1, duplicates: 0 } });
    const [record] = await fetchHealth(user, device._id);
    expect(record).toMatchObject({
      device: device._id,
      spo2: 98,
      heartRate: 72,
      temperature: 97.7,
      battery: 88,
    });
    expect(await lastUpdate(user)).toBe(record!.createdAt);
  });

  it("answers a device's newest readings in one statement with its access check: [] with none, 404 for others", async () => {
    const { user, device } = await userWithDevice(built(), admin);
    const ask = (who: TestUser, id: string, payload: object = {}) =>
      built().app.inject({ method: 'POST', url: `/api/v1/health/fetch/${id}`, headers: who.auth, payload });
    const empty = await ask(user, device._id);
    expect([empty.statusCode, empty.json().data.healthData]).toEqual([200, []]);
    const times = [-30_000, -20_000, -10_000].map(isoFromNow);
    expect(
      (
        await postHealth(
          built(),
          device.apiAuthCode,
          times.map((recordedAt, i) => ({ messageId: `n${i}`, recordedAt, heartRate: 70 + i })),
        )
      ).statusCode,
    ).toBe(202);
    const two = (await ask(user, device._id, { limit: 2 })).json<{ data: { healthData: HealthRecord[] } }>();
    expect(two.data.healthData.map((r) => [r.heartRate, r.createdAt])).toEqual([
      [72, times[2]],
      [71, times[1]],
    ]);
    const stranger = await signup(built());
    for (const id of [device._id, crypto.randomUUID(), 'not-an-id']) {
      expect((await ask(stranger, id)).statusCode).toBe(404);
    }
    expect((await ask(user, crypto.randomUUID())).statusCode).toBe(404);
  });

  it('stores a batch by recordedAt: out-of-order readings, latest = newest recordedAt', async () => {
    const { user, device } = await userWithDevice(built(), admin);
    const times = [-30_000, -90_000, -10_000, -60_000].map(isoFromNow);
    const res = await postHealth(
      built(),
      device.apiAuthCode,
      times.map((recordedAt, i) => ({ recordedAt, heartRate: 70 + i })),
    );
    expect(res.json().data).toEqual({ accepted: 4, duplicates: 0 });
    const records = await fetchHealth(user, device._id);
    expect(records.map((r) => r.createdAt)).toEqual([...times].sort().reverse());
    expect(records[0]!.heartRate).toBe(72);
    expect(await lastUpdate(user)).toBe(times[2]);

    // An older reading arriving later is stored but does not move lastUpdate back.
    await postHealth(built(), device.apiAuthCode, { recordedAt: isoFromNow(-300_000), heartRate: 80 });
    expect(await lastUpdate(user)).toBe(times[2]);
    expect((await fetchHealth(user, device._id))[0]!.createdAt).toBe(times[2]);
  });

  it('50 parallel identical posts with one messageId store one row', async () => {
    const { device } = await userWithDevice(built(), admin);
    const reading = { messageId: 'retry-1', recordedAt: isoFromNow(-1000), spo2: 97 };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => postHealth(built(), device.apiAuthCode, reading)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(202));
    const data = answers.map((a) => a.json().data);
    expect(data.reduce((n, d) => n + d.accepted, 0)).toBe(1);
    expect(data.reduce((n, d) => n + d.duplicates, 0)).toBe(49);
    expect(await countRows(built(), 'health_records', device._id)).toBe(1);

    const again = await postHealth(built(), device.apiAuthCode, [
      reading,
      { ...reading, messageId: 'retry-2' },
    ]);
    expect(again.json().data).toEqual({ accepted: 1, duplicates: 1 });
  });

  it('the same messageId on two devices is two readings', async () => {
    const a = await createDevice(built(), admin);
    const b = await createDevice(built(), admin);
    await postHealth(built(), a.apiAuthCode, { messageId: 'same', spo2: 97 });
    const res = await postHealth(built(), b.apiAuthCode, { messageId: 'same', spo2: 97 });
    expect(res.json().data).toEqual({ accepted: 1, duplicates: 0 });
  });

  it('401 without or with an unknown key; 403 for an inactive device', async () => {
    const missing = await postHealth(built(), undefined, { spo2: 97 });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().message).toBe('Missing X-Api-Key header');
    const unknown = await postHealth(built(), 'not-a-key', { spo2: 97 });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toBe('Unknown API key');
    expect((await postAlert(built(), 'not-a-key', { alertType: 'SOS' })).statusCode).toBe(401);

    const inactive = await createDevice(built(), admin, { isValid: false });
    const res = await postHealth(built(), inactive.apiAuthCode, { spo2: 97 });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('This device is inactive');
    expect((await postAlert(built(), inactive.apiAuthCode, { alertType: 'SOS' })).statusCode).toBe(403);
    expect(await countRows(built(), 'health_records', inactive._id)).toBe(0);
  });

  it('MQTT-style authentication: a code is valid only with its own device id (else 401)', async () => {
    const a = await createDevice(built(), admin);
    const b = await createDevice(built(), admin);
    await expect(built().ctx.ingest.authenticateDevice(a._id, a.apiAuthCode)).resolves.toMatchObject({
      id: a._id,
    });
    await expect(built().ctx.ingest.authenticateDevice(a._id, b.apiAuthCode)).rejects.toMatchObject({
      code: 'unknownApiKey',
    });
    await expect(built().ctx.ingest.authenticateDevice('nope', a.apiAuthCode)).rejects.toMatchObject({
      code: 'unknownApiKey',
    });
    await expect(built().ctx.ingest.authenticateDevice(a._id, 'not-a-key')).rejects.toMatchObject({
      code: 'unknownApiKey',
    });
    await expect(built().ctx.ingest.authenticateDevice(a._id, '')).rejects.toMatchObject({
      code: 'unknownApiKey',
    });
  });

  it('rejects implausible values with a clear per-field message and stores nothing from the request', async () => {
    const device = await createDevice(built(), admin);
    const heart = await postHealth(built(), device.apiAuthCode, { heartRate: 900 });
    expect(heart.statusCode).toBe(400);
    expect(heart.json().issues).toEqual([
      { path: 'heartRate', message: 'heartRate must be between 0 and 300 BPM' },
    ]);

    const batch = await postHealth(built(), device.apiAuthCode, [
      { spo2: 97 },
      { temperature: -40 },
      { spo2: 98 },
    ]);
    expect(batch.statusCode).toBe(400);
    expect(batch.json().issues).toEqual([
      { path: '1.temperature', message: 'temperature must be between 77 and 113 °F' },
    ]);

    const cases: [unknown, string][] = [
      [{ spo2: 97, recordedAt: isoFromNow(6 * 60_000) }, 'recordedAt is more than 5 minutes in the future'],
      [{ spo2: 97, recordedAt: 'yesterday' }, 'Invalid ISO datetime'],
      [{ spo2: 97, recordedAt: '1999-12-31T23:59:59Z' }, 'recordedAt is too far in the past (before 2000)'],
      [{ spo2: '97' }, 'spo2 must be a number'],
      [{ spo2: 97, colour: 'red' }, 'Unrecognized key: "colour"'],
      [{ messageId: 'x' }, 'A reading needs at least one of spo2, heartRate, temperature, battery'],
      [{ spo2: 97, messageId: 'a\u0000b' }, 'messageId must not contain control characters'],
      [[], 'Batch is empty'],
      [Array(501).fill({ spo2: 97 }), 'At most 500 readings per request'],
    ];
    for (const [payload, message] of cases) {
      const res = await postHealth(built(), device.apiAuthCode, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const alert = await postAlert(built(), device.apiAuthCode, {});
    expect(alert.statusCode).toBe(400);
    expect(alert.json().issues).toEqual([{ path: 'alertType', message: 'alertType is required' }]);
    // What names refuse (a right-to-left override reverses "Fall detected"; U+200F is invisible).
    const disguised = await postAlert(built(), device.apiAuthCode, [
      { alertType: 'FALL', alertTitle: '\u202Edetceted llaF' },
      { alertType: 'SOS', alertMessage: 'Help\u200F pressed' },
    ]);
    expect(disguised.statusCode).toBe(400);
    expect(disguised.json().issues).toEqual([
      { path: '0.alertTitle', message: 'alertTitle must not contain control or text-direction characters' },
      {
        path: '1.alertMessage',
        message: 'alertMessage must not contain control or text-direction characters',
      },
    ]);
    expect(await countRows(built(), 'alerts', device._id)).toBe(0);
    expect(await countRows(built(), 'health_records', device._id)).toBe(0);
  });

  it('accepts a reading 4 minutes in the future (device clocks drift)', async () => {
    const device = await createDevice(built(), admin);
    expect(
      (await postHealth(built(), device.apiAuthCode, { spo2: 97, recordedAt: isoFromNow(4 * 60_000) }))
        .statusCode,
    ).toBe(202);
  });

  it('answers 413 for a body over 512 KiB', async () => {
    const device = await createDevice(built(), admin);
    const huge = [{ spo2: 97, messageId: 'x'.repeat(600 * 1024) }];
    const res = await postHealth(built(), device.apiAuthCode, huge);
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('device alerts: FALL and SOS are stored with carer-readable texts, idempotent by messageId', async () => {
    const { device } = await userWithDevice(built(), admin, "Dad's watch");
    const res = await postAlert(built(), device.apiAuthCode, [
      { alertType: 'FALL', messageId: 'f1' },
      { alertType: 'SOS', messageId: 's1', alertMessage: 'Help pressed twice' },
    ]);
    expect(res.statusCode).toBe(202);
    expect(res.json().data).toEqual({ accepted: 2, duplicates: 0 });
    const retry = await postAlert(built(), device.apiAuthCode, { alertType: 'FALL', messageId: 'f1' });
    expect(retry.json().data).toEqual({ accepted: 0, duplicates: 1 });
    expect(await countRows(built(), 'alerts', device._id)).toBe(2);
  });

  it('emits health and alert events after commit, to the device users only', async () => {
    const { user, device } = await userWithDevice(built(), admin, "Dad's watch");
    const second = await signup(built());
    await built().app.inject({
      method: 'POST',
      url: '/api/v1/device/add-device',
      headers: second.auth,
      payload: { data: { activationCode: device.activationCode } },
    });
    const health: [Audience, HealthRecord[]][] = [];
    const alerts: [Audience, AlertRecord[]][] = [];
    const onHealth = (a: Audience, r: HealthRecord[]) => {
      if (a.deviceId === device._id) health.push([a, r]);
    };
    const onAlerts = (a: Audience, r: AlertRecord[]) => {
      if (a.deviceId === device._id) alerts.push([a, r]);
    };
    const { events } = built().ctx;
    events.on('health', onHealth);
    events.on('alerts', onAlerts);
    // A listener that throws must not cost the device its answer.
    const faulty = () => {
      throw new Error('listener bug');
    };
    events.on('health', faulty);
    try {
      const older = isoFromNow(-5000);
      const newer = isoFromNow(-1000);
      const res = await postHealth(built(), device.apiAuthCode, [
        { recordedAt: newer, spo2: 91 },
        { recordedAt: older, spo2: 97 },
      ]);
      expect(res.statusCode).toBe(202);
      expect(health).toHaveLength(1);
      const [audience, records] = health[0]!;
      expect(audience.userIds.sort()).toEqual([user.user._id, second.user._id].sort());
      expect(records.map((r) => [r.createdAt, r.spo2])).toEqual([
        [older, 97],
        [newer, 91],
      ]);
      // What the event carried is what a later fetch shows: it was committed before the event.
      expect((await fetchHealth(user, device._id)).map((r) => r._id).sort()).toEqual(
        records.map((r) => r._id).sort(),
      );
      expect(alerts).toHaveLength(1);
      expect(alerts[0]![1]).toEqual([
        expect.objectContaining({
          device: device._id,
          deviceName: "Dad's watch",
          alertType: 'LOW_SPO2',
          alertTitle: 'Critical low blood oxygen',
          alertMessage: "Critical low blood oxygen: 91% on Dad's watch",
          createdAt: newer,
          isRead: false,
          priority: 'high',
          status: 'active',
        }),
      ]);

      await postAlert(built(), device.apiAuthCode, { alertType: 'SOS' });
      expect(alerts).toHaveLength(2);
      expect(alerts[1]![0].userIds).toHaveLength(2);
      expect(alerts[1]![1][0]).toMatchObject({
        alertTitle: 'SOS pressed',
        alertMessage: "SOS pressed on Dad's watch",
      });
    } finally {
      events.off('health', onHealth);
      events.off('alerts', onAlerts);
      events.off('health', faulty);
    }
  });
});

describe.each(dbTargets())('ingest rate limit on $name', (target) => {
  const built = useTestApp(target, { ingest: { ratePerDevicePerSecond: 3, offlineSweepIntervalMs: 0 } });

  it('answers 429 with Retry-After past the per-device rate, counting each device separately', async () => {
    const admin = await createAdmin(built());
    const a = await createDevice(built(), admin);
    const b = await createDevice(built(), admin);
    // In parallel, so all fall in one one-second window however slow the machine.
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => postHealth(built(), a.apiAuthCode, { spo2: 97 })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([202, 202, 202, 429, 429, 429]);
    const limited = answers.find((r) => r.statusCode === 429)!;
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect(await countRows(built(), 'health_records', a._id)).toBe(3);
    expect((await postHealth(built(), b.apiAuthCode, { spo2: 97 })).statusCode).toBe(202);
  });
});

describe.each(dbTargets())('ingest key failures per address on $name', (target) => {
  const built = useTestApp(target, {
    deviceAuth: { failuresPerIp: 3 },
    ingest: { offlineSweepIntervalMs: 0 },
  });
  const post = (kind: 'health' | 'alert', remoteAddress: string, apiKey: string | undefined) =>
    built().app.inject({
      method: 'POST',
      url: `/api/v1/ingest/${kind}`,
      remoteAddress,
      headers: apiKey === undefined ? {} : { 'x-api-key': apiKey },
      payload: kind === 'health' ? { spo2: 97 } : { alertType: 'SOS' },
    });

  it('answers 429 with Retry-After once an address sent 3 bad keys, while valid keys from it still get 202', async () => {
    const admin = await createAdmin(built());
    const device = await createDevice(built(), admin);
    const disabled = await createDevice(built(), admin, { isValid: false });
    const gateway = '10.20.30.40';
    expect((await post('health', gateway, 'not-a-key-1')).statusCode).toBe(401);
    expect((await post('health', gateway, undefined)).statusCode).toBe(401);
    expect((await post('alert', gateway, 'not-a-key-2')).statusCode).toBe(401);

    const limited = await post('health', gateway, 'not-a-key-3');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({
      success: false,
      code: 'RATE_LIMITED',
      message: expect.any(String),
    });
    expect((await post('alert', gateway, undefined)).statusCode).toBe(429);

    // A valid key is checked first and never held back; a disabled device's key is not a bad key.
    expect((await post('health', gateway, device.apiAuthCode)).statusCode).toBe(202);
    expect((await post('alert', gateway, device.apiAuthCode)).statusCode).toBe(202);
    expect((await post('health', gateway, disabled.apiAuthCode)).statusCode).toBe(403);
    expect(await countRows(built(), 'health_records', device._id)).toBe(1);

    // Other addresses are counted apart.
    expect((await post('health', '10.20.30.41', 'not-a-key-1')).statusCode).toBe(401);
  });
});
