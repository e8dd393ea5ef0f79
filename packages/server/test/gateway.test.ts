import { contracts, GATEWAY_KEY_PREFIX } from '@vitalwatch/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { contractClient, dataOf } from './contract-client.ts';
import { countRows, isoFromNow, postHealth, userWithDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';

describe.each(dbTargets())('browser gateways on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;
  let user: TestUser;
  let deviceId: string;

  beforeAll(async () => {
    admin = await createAdmin(built());
    const made = await userWithDevice(built(), admin, 'Oximeter');
    user = made.user;
    deviceId = made.device._id;
  });

  const issue = async (label = 'Chrome on Android') =>
    dataOf(await contractClient(built(), user).call(contracts.gateway.issue, { body: { deviceId, label } }))
      .data;

  it('ingests with its key for its device only, a resend stored once, until it is revoked', async () => {
    const { gateway, key } = await issue();
    expect(key.startsWith(GATEWAY_KEY_PREFIX)).toBe(true);
    const batch = [
      { messageId: 'gw-1', recordedAt: isoFromNow(-2000), spo2: 97, heartRate: 71 },
      { messageId: 'gw-2', recordedAt: isoFromNow(-1000), heartRate: 72 },
    ];
    const first = await postHealth(built(), key, batch);
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json().data).toEqual({ accepted: 2, duplicates: 0 });
    const resent = await postHealth(built(), key, batch);
    expect(resent.json().data).toEqual({ accepted: 0, duplicates: 2 });
    expect(await countRows(built(), 'health_records', deviceId)).toBe(2);

    const listed = dataOf(
      await contractClient(built(), user).call(contracts.gateway.list, { body: { deviceId } }),
    );
    expect(listed.data.gateways.map((g) => g._id)).toContain(gateway._id);
    expect(listed.data.gateways.find((g) => g._id === gateway._id)?.lastUsedAt).not.toBeNull();

    const revoked = await contractClient(built(), user).call(contracts.gateway.revoke, {
      body: { deviceId, gatewayId: gateway._id },
    });
    expect(dataOf(revoked).data.gateways.map((g) => g._id)).not.toContain(gateway._id);
    const after = await postHealth(built(), key, [{ messageId: 'gw-3', heartRate: 70 }]);
    expect(after.statusCode).toBe(401);
  });

  it('is not the session: signing out leaves the key working', async () => {
    const made = await userWithDevice(built(), admin);
    const issued = await contractClient(built(), made.user).call(contracts.gateway.issue, {
      body: { deviceId: made.device._id, label: 'Laptop' },
    });
    const { key } = dataOf(issued).data;
    const out = await built().app.inject({
      method: 'POST',
      url: '/api/v1/user/logout',
      headers: made.user.auth,
    });
    expect(out.statusCode).toBeLessThan(500);
    const res = await postHealth(built(), key, { messageId: 'gw-after-logout', battery: 80 });
    expect(res.statusCode).toBe(202);
  });

  it('stores the make and model the wearable reports, shown on the device', async () => {
    const { key } = await issue('Tablet');
    const res = await built().app.inject({
      method: 'POST',
      url: '/api/v1/ingest/device-info',
      headers: { 'x-api-key': key },
      payload: { make: 'Nonin Medical', model: '3245' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const fresh = await signup(built());
    const details = await contractClient(built(), admin).callLoose(contracts.device.details, {
      body: { data: { deviceId } },
    });
    expect(details.statusCode).toBe(403);
    const mine = dataOf(
      await contractClient(built(), user).call(contracts.device.details, { body: { data: { deviceId } } }),
    );
    expect(mine.data.device).toMatchObject({ make: 'Nonin Medical', model: '3245' });
    const stranger = await contractClient(built(), fresh).call(contracts.gateway.issue, {
      body: { deviceId, label: 'Not mine' },
    });
    expect(stranger.statusCode).toBe(404);
  });

  it('refuses a wrong key, an empty label, and a revoke of another device', async () => {
    expect((await postHealth(built(), `${GATEWAY_KEY_PREFIX}nope`, { heartRate: 70 })).statusCode).toBe(401);
    const empty = await contractClient(built(), user).callLoose(contracts.gateway.issue, {
      body: { deviceId, label: '  ' },
    });
    expect(empty.statusCode).toBe(400);
    const other = await userWithDevice(built(), admin);
    const { gateway } = await issue('Phone');
    const crossed = await contractClient(built(), other.user).call(contracts.gateway.revoke, {
      body: { deviceId: other.device._id, gatewayId: gateway._id },
    });
    expect(crossed.statusCode).toBe(404);
  });
});
