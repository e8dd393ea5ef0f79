import {
  type AdminDeviceLatest,
  type AuditEntry,
  type AuditPage,
  type HealthRecord,
  type TestReading,
  type Vital,
  vitalState,
} from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mqttEndpointOf, normalTestReading } from '../src/modules/ingest/device-setup.ts';
import { countRows, createDevice, isoFromNow, postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';
import { recordEvents, useSockets } from './realtime-helpers.ts';

const VITALS: readonly Vital[] = ['spo2', 'heartRate', 'temperature', 'battery'];
const UNKNOWN_DEVICE = '00000000-0000-4000-8000-000000000000';

describe.each(dbTargets())('the admin first-run path of a device on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  const connect = useSockets(built);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  const post = (url: string, headers: Record<string, string> = {}) =>
    built().app.inject({ method: 'POST', url, headers });
  const testReading = (id: string, who?: TestUser) => post(`/api/v1/admin/test-reading/${id}`, who?.auth);
  const latest = (id: string, who?: TestUser) => post(`/api/v1/admin/device-latest/${id}`, who?.auth);
  const auditOf = async (deviceId: string): Promise<AuditEntry[]> => {
    const res = await built().app.inject({
      method: 'GET',
      url: `/api/v1/admin/audit?limit=50&targetId=${deviceId}`,
      headers: admin.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: AuditPage }>().data.entries;
  };
  const minuteRollups = async (deviceId: string) => {
    const result = await built().ctx.db.execute(
      sql`select coalesce(sum(readings), 0)::int as n from health_rollups_minute
        where device_seq = (select seq from devices where id = ${deviceId}::uuid)`,
    );
    return z.object({ rows: z.tuple([z.object({ n: z.number() })]) }).parse(result).rows[0].n;
  };

  it('stores one normal reading through the ingest path: the carer sees it live, rollups count it, the audit log has it', async () => {
    const { user, device } = await userWithDevice(built(), admin);
    const socket = await connect({ token: user.accessToken });
    const live = recordEvents(socket, 'healthDataUpdate');

    const res = await testReading(device._id, admin);
    expect(res.statusCode, res.body).toBe(202);
    const data = res.json<{ data: { accepted: number; duplicates: number; reading: TestReading } }>().data;
    expect(data).toMatchObject({ accepted: 1, duplicates: 0 });
    const { reading } = data;
    for (const vital of VITALS) expect(vitalState(vital, reading[vital]), vital).toBe('normal');
    expect(reading.messageId).toMatch(/^admin-test-/);

    expect(await countRows(built(), 'health_records', device._id)).toBe(1);
    expect(await countRows(built(), 'alerts', device._id)).toBe(0);
    expect(await minuteRollups(device._id)).toBe(1);
    const [pushed] = await live.waitFor(1);
    expect(pushed).toMatchObject({ device: device._id, spo2: reading.spo2, heartRate: reading.heartRate });

    const fetched = await built().app.inject({
      method: 'POST',
      url: `/api/v1/health/fetch/${device._id}`,
      headers: user.auth,
      payload: { limit: 1 },
    });
    expect(fetched.json<{ data: { healthData: HealthRecord[] } }>().data.healthData[0]).toMatchObject({
      spo2: reading.spo2,
      heartRate: reading.heartRate,
      temperature: reading.temperature,
      battery: reading.battery,
    });

    const [entry] = await auditOf(device._id);
    expect(entry).toMatchObject({
      action: 'device-test-reading',
      outcome: 'success',
      actorId: admin.user._id,
      detail: {
        messageId: reading.messageId,
        spo2: reading.spo2,
        heartRate: reading.heartRate,
        temperature: reading.temperature,
        battery: reading.battery,
      },
    });
  });

  it("shows the admin the device's newest reading by recordedAt, and null before the first", async () => {
    const device = await createDevice(built(), admin);
    const before = await latest(device._id, admin);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json<{ data: AdminDeviceLatest }>().data).toEqual({ healthData: null, mqtt: null });

    const newest = isoFromNow(-60_000);
    expect((await postHealth(built(), device.apiAuthCode, { spo2: 96, recordedAt: newest })).statusCode).toBe(
      202,
    );
    // Arrives later, recorded earlier: not the newest.
    const older = { spo2: 91, recordedAt: isoFromNow(-600_000) };
    expect((await postHealth(built(), device.apiAuthCode, older)).statusCode).toBe(202);
    const after = (await latest(device._id, admin)).json<{ data: AdminDeviceLatest }>().data;
    expect(after.healthData).toMatchObject({ device: device._id, spo2: 96, createdAt: newest });
  });

  it('refuses a test reading for an inactive device (409), storing nothing', async () => {
    const device = await createDevice(built(), admin, { isValid: false });
    const res = await testReading(device._id, admin);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toBe(
      'This device is inactive: switch it to Active before sending a test reading',
    );
    expect(await countRows(built(), 'health_records', device._id)).toBe(0);
  });

  it('is for admins only: 401 without a token, 403 for a user (audited as refused), 404 for no such device', async () => {
    const { user, device } = await userWithDevice(built(), admin);
    for (const call of [testReading, latest]) {
      expect((await call(device._id)).statusCode).toBe(401);
      expect((await call(device._id, user)).statusCode).toBe(403);
      expect((await call(UNKNOWN_DEVICE, admin)).statusCode).toBe(404);
      expect((await call('not-a-uuid', admin)).statusCode).toBe(404);
    }
    const stranger = await signup(built());
    expect((await testReading(device._id, stranger)).statusCode).toBe(403);
    expect(await countRows(built(), 'health_records', device._id)).toBe(0);
    const refusals = await built().app.inject({
      method: 'GET',
      url: `/api/v1/admin/audit?limit=50&action=access-denied&actor=${stranger.user.username}`,
      headers: admin.auth,
    });
    expect(refusals.json<{ data: AuditPage }>().data.entries.map((e) => e.detail.route)).toContain(
      'POST /api/v1/admin/test-reading/:id',
    );
  });
});

describe('the test reading and the MQTT endpoint the admin is shown', () => {
  it('keeps every value inside its normal range at either end of the random draw', () => {
    for (const draw of [0, 0.5, 0.999_999]) {
      const reading = normalTestReading(() => draw);
      for (const vital of VITALS)
        expect(vitalState(vital, reading[vital]), `${vital} at ${draw}`).toBe('normal');
    }
  });

  it('names the embedded port, an external broker by host and port, and nothing when off', () => {
    expect(
      mqttEndpointOf({ mode: 'embedded', url: 'mqtt://127.0.0.1:1884', port: 1884, requestedPort: 1883 }),
    ).toEqual({
      host: null,
      port: 1884,
    });
    expect(mqttEndpointOf({ mode: 'external', url: 'mqtt://broker.example:2883' })).toEqual({
      host: 'broker.example',
      port: 2883,
    });
    expect(mqttEndpointOf({ mode: 'external', url: 'mqtts://broker.example' })).toEqual({
      host: 'broker.example',
      port: 8883,
    });
    expect(mqttEndpointOf({ mode: 'off', reason: 'MQTT_PORT=0' })).toBeNull();
  });
});
