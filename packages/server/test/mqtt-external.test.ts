import { randomUUID } from 'node:crypto';
import { deviceTopic } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, eventually, unique } from './helpers.ts';
import { useMqttApp } from './mqtt-helpers.ts';
import { connectSocket, listenOnce, recordEvents, serviceUrl } from './realtime-helpers.ts';

// The local Mosquitto (TEST_MQTT_URL) stands in for an MQTT cluster: devices publish to it, the
// server ingests through its shared subscription. Mosquitto here allows anonymous clients; in
// production the broker authenticates devices (see the MQTT section of the README).
const mqttUrl = serviceUrl('TEST_MQTT_URL');

describe.skipIf(!mqttUrl).each(dbTargets())(
  'MQTT through an external broker (Mosquitto) on $name',
  (target) => {
    // With credentials, as in production: the auth hook lets the server itself in as superuser.
    const withCredentials = mqttUrl
      ? Object.assign(new URL(mqttUrl), { username: 'vw-server', password: 's3cret' })
      : undefined;
    const built = useMqttApp(target, () => ({ mqttUrl: withCredentials?.toString() }));
    let publisher: MqttClient;
    beforeAll(async () => {
      publisher = await connectAsync(
        mqttUrl!,
        { clientId: unique('vw-test-device-'), reconnectPeriod: 0 },
        false,
      );
    });
    afterAll(async () => {
      await publisher?.endAsync(true);
    });

    it('runs in external mode, with no embedded broker', async () => {
      expect(built().ctx.mqtt.status).toEqual({ mode: 'external', url: expect.stringContaining('mqtt://') });
      expect(built().ctx.mqtt.describe()).toContain('$share/vitalwatch/devices/+/+');
      const ready = await built().app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.json()).toMatchObject({ checks: { mqtt: 'ok' } });
    });

    it('ingests a reading published to the broker and pushes it to the watcher’s socket', async () => {
      const admin = await createAdmin(built());
      const { user, device } = await userWithDevice(built(), admin);
      const socket = await connectSocket(await listenOnce(built()), { token: user.accessToken });
      try {
        const health = recordEvents(socket, 'healthDataUpdate');
        const reading = { messageId: unique('m'), heartRate: 64, spo2: 98 };
        await publisher.publishAsync(deviceTopic(device._id, 'health'), JSON.stringify(reading), { qos: 1 });
        const [record] = await health.waitFor(1, 10_000);
        expect(record).toMatchObject({ device: device._id, heartRate: 64, spo2: 98 });
        expect(await countRows(built(), 'health_records', device._id)).toBe(1);

        // A retry through the broker (same messageId) is stored once. The baseline is read before
        // publishing: the server can count the duplicate before the broker's PUBACK reaches us.
        const duplicates = built().ctx.mqtt.stats.duplicates;
        await publisher.publishAsync(deviceTopic(device._id, 'health'), JSON.stringify(reading), { qos: 1 });
        await eventually(() => built().ctx.mqtt.stats.duplicates > duplicates);
        expect(await countRows(built(), 'health_records', device._id)).toBe(1);
      } finally {
        socket.close();
      }
    });

    it('keeps retrying a message it could not store, and stores it once storage is back', async () => {
      const admin = await createAdmin(built());
      const { device } = await userWithDevice(built(), admin);
      const db = built().ctx.db;
      const failed = built().ctx.mqtt.stats.failed;
      await db.execute(sql`alter table health_records rename to health_records_away`);
      try {
        const reading = { messageId: unique('m'), heartRate: 88 };
        await publisher.publishAsync(deviceTopic(device._id, 'health'), JSON.stringify(reading), { qos: 1 });
        await eventually(() => built().ctx.mqtt.stats.failed >= failed + 2);
      } finally {
        await db.execute(sql`alter table health_records_away rename to health_records`);
      }
      await eventually(async () => (await countRows(built(), 'health_records', device._id)) === 1, 10_000);
    });

    it('drops messages for unknown devices and malformed payloads, storing nothing', async () => {
      const stats = built().ctx.mqtt.stats;
      const refused = stats.refused;
      const malformed = stats.malformed;
      const stranger = randomUUID();
      await publisher.publishAsync(deviceTopic(stranger, 'health'), JSON.stringify({ heartRate: 70 }), {
        qos: 1,
      });
      await publisher.publishAsync(deviceTopic('not-a-uuid', 'alert'), JSON.stringify({ alertType: 'SOS' }), {
        qos: 1,
      });
      await eventually(() => stats.refused >= refused + 2);
      const admin = await createAdmin(built());
      const { device } = await userWithDevice(built(), admin);
      await publisher.publishAsync(deviceTopic(device._id, 'health'), '{"heartRate":', { qos: 1 });
      await eventually(() => stats.malformed > malformed);
      expect(await countRows(built(), 'health_records', stranger)).toBe(0);
      expect(await countRows(built(), 'health_records', device._id)).toBe(0);
    });

    it('serves the broker’s HTTP auth hooks: devices by id and code, the server as superuser, own topics only', async () => {
      const admin = await createAdmin(built());
      const { device } = await userWithDevice(built(), admin);
      const hook = async (path: 'auth' | 'acl', payload: object) => {
        const res = await built().app.inject({ method: 'POST', url: `/api/v1/mqtt/${path}`, payload });
        expect(res.statusCode).toBe(200);
        return res.json<{ result: string; is_superuser: boolean }>();
      };
      expect(await hook('auth', { username: device._id, password: device.apiAuthCode })).toEqual({
        result: 'allow',
        is_superuser: false,
      });
      expect((await hook('auth', { username: device._id, password: 'wrong' })).result).toBe('deny');
      expect((await hook('auth', { username: device._id })).result).toBe('deny');
      expect(await hook('auth', { username: 'vw-server', password: 's3cret' })).toEqual({
        result: 'allow',
        is_superuser: true,
      });
      expect((await hook('auth', { username: 'vw-server', password: 's3cres' })).result).toBe('deny');

      const acl = (topic: string, action: string) => hook('acl', { username: device._id, topic, action });
      expect((await acl(deviceTopic(device._id, 'health'), 'publish')).result).toBe('allow');
      expect((await acl(deviceTopic(device._id, 'alert'), 'publish')).result).toBe('allow');
      expect((await acl(deviceTopic(randomUUID(), 'health'), 'publish')).result).toBe('deny');
      expect((await acl(`devices/${device._id}/other`, 'publish')).result).toBe('deny');
      expect((await acl(deviceTopic(device._id, 'health'), 'subscribe')).result).toBe('deny');
    });

    it('the auth hook allows a device’s right code after any number of wrong ones', async () => {
      const admin = await createAdmin(built());
      const { device } = await userWithDevice(built(), admin);
      const auth = async (username: string, password: string) => {
        const res = await built().app.inject({
          method: 'POST',
          url: '/api/v1/mqtt/auth',
          payload: { username, password },
        });
        expect(res.statusCode).toBe(200);
        return res.json<{ result: string }>().result;
      };
      // Past the per-id count (10): only reported, never a lock on the id.
      for (let i = 0; i < 12; i++) expect(await auth(device._id, `guess-${i}`)).toBe('deny');
      expect(await auth(device._id, device.apiAuthCode)).toBe('allow');
      for (let i = 12; i < 15; i++) expect(await auth(device._id, `guess-${i}`)).toBe('deny');
      expect(await auth(device._id, device.apiAuthCode)).toBe('allow');
      expect(await auth('vw-server', 's3cret')).toBe('allow');
    });
  },
);
