import { deviceTopic } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { countRows, createDevice, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, type TestUser, unique } from './helpers.ts';
import { brokerUrl, closed, connectDevice, useMqttApp } from './mqtt-helpers.ts';
import { type ClientSocket, connectSocket, listenOnce, recordEvents } from './realtime-helpers.ts';

describe.each(dbTargets())('MQTT through the embedded broker on $name', (target) => {
  const built = useMqttApp(target);
  const open: Array<MqttClient | ClientSocket> = [];
  let adminUser: TestUser | undefined;
  const admin = async () => {
    adminUser ??= await createAdmin(built());
    return adminUser;
  };
  const device = async (options: { watcher?: boolean } = {}) => {
    const { user, device } = await userWithDevice(built(), await admin());
    const client = await connectDevice(brokerUrl(built()), device);
    open.push(client);
    let socket: ClientSocket | undefined;
    if (options.watcher) {
      socket = await connectSocket(await listenOnce(built()), { token: user.accessToken });
      open.push(socket);
    }
    return { user, device, client, socket };
  };
  afterEach(async () => {
    await Promise.all(
      open.splice(0).map((c) => ('endAsync' in c ? c.endAsync(true) : Promise.resolve(c.close()))),
    );
  });

  it('acknowledges a QoS 1 reading only once it is stored, then the watcher’s socket gets it', async () => {
    const { device: d, client, socket } = await device({ watcher: true });
    const health = recordEvents(socket!, 'healthDataUpdate');
    const messageId = unique('m');
    await client.publishAsync(
      deviceTopic(d._id, 'health'),
      JSON.stringify({ messageId, heartRate: 77, spo2: 97 }),
      {
        qos: 1,
      },
    );
    // The PUBACK has arrived: the row must already be committed.
    expect(await countRows(built(), 'health_records', d._id)).toBe(1);
    const [record] = await health.waitFor(1);
    expect(record).toMatchObject({ device: d._id, heartRate: 77, spo2: 97, temperature: null });
    expect(Date.parse(record!.createdAt)).not.toBeNaN();

    // A resend of the same messageId (lost PUBACK) is stored once.
    const duplicatesBefore = built().ctx.mqtt.stats.duplicates;
    await client.publishAsync(deviceTopic(d._id, 'health'), JSON.stringify({ messageId, heartRate: 77 }), {
      qos: 1,
    });
    expect(await countRows(built(), 'health_records', d._id)).toBe(1);
    expect(built().ctx.mqtt.stats.duplicates).toBe(duplicatesBefore + 1);

    // A batch in one message.
    const batch = [70, 71, 72].map((heartRate) => ({ messageId: unique('m'), heartRate }));
    await client.publishAsync(deviceTopic(d._id, 'health'), JSON.stringify(batch), { qos: 1 });
    expect(await countRows(built(), 'health_records', d._id)).toBe(4);
    expect((await health.waitFor(4)).map((r) => r.heartRate)).toEqual([77, 70, 71, 72]);
  });

  it('raises device events (FALL) as alerts the watcher’s socket receives', async () => {
    const { device: d, client, socket } = await device({ watcher: true });
    const alerts = recordEvents(socket!, 'alertsUpdate');
    await client.publishAsync(deviceTopic(d._id, 'alert'), JSON.stringify({ alertType: 'FALL' }), { qos: 1 });
    expect(await countRows(built(), 'alerts', d._id)).toBe(1);
    const [batch] = await alerts.waitFor(1);
    expect(batch).toEqual([expect.objectContaining({ device: d._id, alertType: 'FALL', isRead: false })]);
  });

  it('refuses a wrong password, another device’s code and a missing password', async () => {
    const { device: d } = await device();
    const other = await createDevice(built(), await admin());
    const url = brokerUrl(built());
    await expect(connectDevice(url, { _id: d._id, apiAuthCode: 'wrong' })).rejects.toThrow(
      /Bad username or password/,
    );
    await expect(connectDevice(url, { _id: d._id, apiAuthCode: other.apiAuthCode })).rejects.toThrow(
      /Bad username or password/,
    );
    await expect(connectDevice(url, { _id: 'not-a-device', apiAuthCode: d.apiAuthCode })).rejects.toThrow(
      /Bad username or password/,
    );
    await expect(connectAsyncWithoutPassword(url, d._id)).rejects.toThrow(/Bad username or password/);
  });

  it('disconnects a device publishing to another device’s topic and stores nothing', async () => {
    const { client } = await device();
    const victim = await createDevice(built(), await admin());
    const refusedBefore = built().ctx.mqtt.stats.refused;
    const gone = closed(client);
    client.publish(deviceTopic(victim._id, 'health'), JSON.stringify({ heartRate: 180 }), { qos: 1 });
    await gone;
    expect(built().ctx.mqtt.stats.refused).toBe(refusedBefore + 1);
    expect(await countRows(built(), 'health_records', victim._id)).toBe(0);
  });

  it('reports the broker in /readyz and in the start-up line', async () => {
    const ready = await built().app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ checks: { mqtt: 'ok' } });
    expect(built().ctx.mqtt.describe()).toBe(`MQTT: embedded broker at ${brokerUrl(built())}`);
  });

  it('refuses every subscription', async () => {
    const { device: d, client } = await device();
    // SUBACK 0x80 (failure): mqtt.js rejects the subscription.
    await expect(client.subscribeAsync(deviceTopic(d._id, 'health'), { qos: 1 })).rejects.toThrow(
      /Subscribe error/,
    );
    await expect(client.subscribeAsync('#', { qos: 0 })).rejects.toThrow(/Subscribe error/);
  });

  it('acknowledges, counts and drops malformed payloads without storing anything', async () => {
    const { device: d, client } = await device();
    const payloads = [
      'not json',
      '',
      '{"heartRate":900}',
      '{"temperature":-40}',
      '{}',
      '[]',
      '{"heartRate":70,"password":"x"}',
      JSON.stringify(Array.from({ length: 501 }, () => ({ heartRate: 70 }))),
      JSON.stringify({ heartRate: 70, recordedAt: new Date(Date.now() + 3_600_000).toISOString() }),
    ];
    const before = built().ctx.mqtt.stats.malformed;
    for (const payload of payloads)
      await client.publishAsync(deviceTopic(d._id, 'health'), payload, { qos: 1 });
    const alerts = [
      '{"alertType":"fall down"}',
      JSON.stringify({ alertType: 'FALL', alertTitle: '\u202Edetceted llaF' }),
      JSON.stringify({ alertType: 'SOS', alertMessage: 'Help\u2066 pressed' }),
    ];
    for (const payload of alerts) await client.publishAsync(deviceTopic(d._id, 'alert'), payload, { qos: 1 });
    expect(built().ctx.mqtt.stats.malformed).toBe(before + payloads.length + alerts.length);
    expect(client.connected).toBe(true);
    expect(await countRows(built(), 'health_records', d._id)).toBe(0);
    expect(await countRows(built(), 'alerts', d._id)).toBe(0);
  });

  it('never acknowledges a reading it could not store: the device reconnects, resends, and it is stored once', async () => {
    const { device: d } = await userWithDevice(built(), await admin());
    const client = await connectDevice(brokerUrl(built()), d, { reconnectPeriod: 100 });
    open.push(client);
    const db = built().ctx.db;
    // A real storage failure: the table is briefly gone.
    await db.execute(sql`alter table health_records rename to health_records_away`);
    let acked = false;
    const firstClose = new Promise<void>((resolve) => client.once('close', () => resolve()));
    const publishing = client
      .publishAsync(deviceTopic(d._id, 'health'), JSON.stringify({ messageId: unique('m'), heartRate: 75 }), {
        qos: 1,
      })
      .then(() => {
        acked = true;
      });
    try {
      await firstClose;
      expect(acked).toBe(false);
      expect(built().ctx.mqtt.stats.failed).toBeGreaterThan(0);
    } finally {
      await db.execute(sql`alter table health_records_away rename to health_records`);
    }
    await publishing;
    expect(await countRows(built(), 'health_records', d._id)).toBe(1);
  });

  it('disconnects a device disabled while connected and refuses its reconnection', async () => {
    const { device: d, client } = await device();
    const res = await built().app.inject({
      method: 'POST',
      url: `/api/v1/admin/change-validity/${d._id}`,
      headers: (await admin()).auth,
      payload: { isValid: false },
    });
    expect(res.statusCode).toBe(200);
    const gone = closed(client);
    client.publish(deviceTopic(d._id, 'health'), JSON.stringify({ heartRate: 70 }), { qos: 1 });
    await gone;
    expect(await countRows(built(), 'health_records', d._id)).toBe(0);
    await expect(connectDevice(brokerUrl(built()), d)).rejects.toThrow(/Not authorized/);
  });
});

const connectAsyncWithoutPassword = (url: string, deviceId: string) =>
  connectDevice(url, { _id: deviceId, apiAuthCode: '' });
