import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { countRows, createDevice, postHealth } from './device-helpers.ts';
import { createAdmin, dbTargets, type TestUser, useTestApp } from './helpers.ts';

/**
 * A device disabled on another server node: this node's credential cache still holds it as
 * active for up to a second. The write itself must refuse it, over HTTP and MQTT alike.
 */
describe.each(dbTargets())('a device disabled elsewhere on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  /** An active device whose credentials this node has cached, then disabled behind its back. */
  async function disabledBehindTheCache() {
    const device = await createDevice(built(), admin);
    expect((await postHealth(built(), device.apiAuthCode, { spo2: 97 })).statusCode).toBe(202);
    await built().ctx.db.execute(sql`update devices set is_valid = false where id = ${device._id}::uuid`);
    const cached = await built().ctx.ingest.authenticateApiKey(device.apiAuthCode);
    expect(cached.isValid).toBe(true);
    return device;
  }

  it('stores no reading (403) even though the cached credentials still say active', async () => {
    const device = await disabledBehindTheCache();
    const res = await postHealth(built(), device.apiAuthCode, { spo2: 80 });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('This device is inactive');
    expect(await countRows(built(), 'health_records', device._id)).toBe(1);
    expect(await countRows(built(), 'alerts', device._id)).toBe(0);
  });

  it('stores no device-raised alert (403)', async () => {
    const device = await disabledBehindTheCache();
    const refused = built().ctx.ingest.ingestAlerts({ id: device._id }, [{ alertType: 'SOS' }]);
    await expect(refused).rejects.toMatchObject({ code: 'deviceInactive' });
    expect(await countRows(built(), 'alerts', device._id)).toBe(0);
  });

  it('refuses only the disabled device of a shared group commit', async () => {
    const disabled = await disabledBehindTheCache();
    const active = await createDevice(built(), admin);
    const [refused, accepted] = await Promise.allSettled([
      built().ctx.ingest.ingestHealth({ id: disabled._id }, [{ heartRate: 70 }]),
      built().ctx.ingest.ingestHealth({ id: active._id }, [{ heartRate: 70 }]),
    ]);
    expect(refused).toMatchObject({ status: 'rejected', reason: { code: 'deviceInactive' } });
    expect(accepted).toEqual({ status: 'fulfilled', value: { accepted: 1, duplicates: 0 } });
    expect(await countRows(built(), 'health_records', disabled._id)).toBe(1);
    expect(await countRows(built(), 'health_records', active._id)).toBe(1);
  });
});
