import { sql, TransactionRollbackError } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rawRows } from '../src/db/raw-rows.ts';
import { createDevice, joinByCode, ownedDevice } from './device-helpers.ts';
import { createAdmin, dbTargets, signup, type TestUser, useTestApp } from './helpers.ts';

/**
 * Each device's count of users kept by migration 0035 against count(*) over device_users, through
 * every way a device's users come and go, and the count each device list shows.
 */
describe.each(dbTargets())('kept device user counts on $name', (target) => {
  const built = useTestApp(target, { ingest: { offlineSweepIntervalMs: 0 } });
  let admin: TestUser;

  const post = async (user: TestUser, url: string, payload: object = {}) => {
    const res = await built().app.inject({
      method: 'POST',
      url: `/api/v1${url}`,
      headers: user.auth,
      payload,
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res;
  };
  /** Devices whose kept count differs from their rows in device_users (none when exact). */
  const drift = () =>
    rawRows(
      built().ctx.db,
      sql`select coalesce(e.device_id, k.device_id)::text as device_id, coalesce(e.n, 0)::int as counted,
            coalesce(k.n, 0)::int as kept
          from (select device_id, count(*) as n from device_users group by 1) e
          full join vw_counts.device_user_counts k on k.device_id = e.device_id
          where coalesce(e.n, 0) <> coalesce(k.n, 0) or k.n = 0`,
      z.object({ device_id: z.string(), counted: z.number(), kept: z.number() }),
    );
  /** The count the user's device list shows for the device. */
  const listed = async (user: TestUser, deviceId: string) => {
    const devices: { _id: string; users: number }[] = (await post(user, '/device/get-device')).json().data
      .devices;
    return devices.find((d) => d._id === deviceId)?.users;
  };

  beforeAll(async () => {
    admin = await createAdmin(built());
  });

  it('follows assignments by the admin, codes, confirmations, removals and deletes', async () => {
    const [owner, second, third] = [await signup(built()), await signup(built()), await signup(built())];
    const device = await ownedDevice(built(), admin, owner);
    expect(await listed(owner, device._id)).toBe(1);

    await joinByCode(built(), owner, second, device.activationCode);
    // Waiting for an owner counts as a user, as before the count was kept.
    const pending = await built().app.inject({
      method: 'POST',
      url: '/api/v1/device/add-device',
      headers: third.auth,
      payload: { data: { activationCode: device.activationCode } },
    });
    expect(pending.statusCode).toBe(403);
    expect(await listed(owner, device._id)).toBe(3);
    expect(await drift()).toEqual([]);

    await post(owner, `/circle/${device._id}/remove`, { userId: second.user._id });
    expect(await listed(owner, device._id)).toBe(2);

    await post(admin, `/admin/update-device/${device._id}`, {
      deviceName: device.deviceName,
      users: [second.user._id, third.user._id],
    });
    expect(await listed(second, device._id)).toBe(2);
    expect(await drift()).toEqual([]);

    await post(admin, `/admin/delete-user/${third.user._id}`);
    expect(await listed(second, device._id)).toBe(1);

    const other = await createDevice(built(), admin, { users: [owner.user._id, second.user._id] });
    expect(await listed(owner, other._id)).toBe(2);
    await post(admin, `/admin/delete-device/${device._id}`);
    expect(await drift()).toEqual([]);
    const kept = await rawRows(
      built().ctx.db,
      sql`select count(*)::int as n from vw_counts.device_user_counts where device_id = ${device._id}::uuid`,
      z.object({ n: z.number() }),
    );
    expect(kept[0]?.n).toBe(0);
  });

  it('refuses to move an assignment to another device or user, and empties on truncate', async () => {
    const owner = await signup(built());
    const device = await ownedDevice(built(), admin, owner);
    await expect(
      built().ctx.db.execute(
        sql`update device_users set user_id = ${admin.user._id}::uuid where device_id = ${device._id}::uuid`,
      ),
    ).rejects.toThrow();
    const kept = sql`select count(*)::int as n from vw_counts.device_user_counts`;
    const truncated = built().ctx.db.transaction(async (tx) => {
      await tx.execute(sql`truncate device_users`);
      expect(await rawRows(tx, kept, z.object({ n: z.number() }))).toEqual([{ n: 0 }]);
      tx.rollback();
    });
    await expect(truncated).rejects.toBeInstanceOf(TransactionRollbackError);
    expect(await listed(owner, device._id)).toBe(1);
  });
});
