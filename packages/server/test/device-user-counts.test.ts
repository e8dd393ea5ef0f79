import { sql, TransactionRollbackError } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { drizzleOverPglite, newPglite } from '../src/db/index.ts';
import { rawRows } from '../src/db/raw-rows.ts';
import { addByCode, createDevice, deviceUserCountDrift, joinByCode, ownedDevice } from './device-helpers.ts';
import {
  createAdmin,
  dbTargets,
  MIGRATIONS,
  migrationsBefore,
  signup,
  type TestUser,
  useTestApp,
} from './helpers.ts';

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
  const drift = () => deviceUserCountDrift(built().ctx.db);
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
    const pending = await addByCode(built(), third, device.activationCode);
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
    const shared = await createDevice(built(), admin, { users: [owner.user._id, second.user._id] });
    expect(await listed(owner, other._id)).toBe(2);
    // A device with two users goes, then a user of two devices.
    await post(admin, `/admin/delete-device/${shared._id}`);
    await post(admin, `/admin/delete-user/${second.user._id}`);
    expect(await listed(owner, other._id)).toBe(1);
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
    const refused = await built()
      .ctx.db.execute(
        sql`update device_users set user_id = ${admin.user._id}::uuid where device_id = ${device._id}::uuid`,
      )
      .catch((err: { cause?: Error }) => err.cause?.message);
    expect(refused).toMatch(/not changed once stored/);
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

describe('migration 0035', () => {
  it("counts each device's users stored by an earlier release, and keeps counting", async () => {
    const client = newPglite();
    const db = drizzleOverPglite(client);
    await migrate(db, { migrationsFolder: migrationsBefore('0035') });
    // Three devices with one, two and three users, and a fourth with none.
    await client.exec(`
      insert into devices (id, device_name, activation_code, api_auth_code)
        select ('00000000-0000-4000-8000-00000000000' || d)::uuid, 'd' || d, 'act-' || d, 'key-' || d
        from generate_series(1, 4) d;
      insert into users (id, full_name, username, email, password_hash)
        select ('00000000-0000-4000-9000-00000000000' || u)::uuid, 'u' || u, 'u' || u, 'u' || u || '@example.com', 'x'
        from generate_series(1, 3) u;
      insert into device_users (device_id, user_id)
        select ('00000000-0000-4000-8000-00000000000' || d)::uuid, ('00000000-0000-4000-9000-00000000000' || u)::uuid
        from generate_series(1, 3) d, generate_series(1, 3) u where u <= d;`);
    await migrate(db, { migrationsFolder: MIGRATIONS });
    const kept = 'select right(device_id::text, 1) as device, n from vw_counts.device_user_counts order by 1';
    expect((await client.query(kept)).rows).toEqual([
      { device: '1', n: 1 },
      { device: '2', n: 2 },
      { device: '3', n: 3 },
    ]);
    await client.exec(`
      insert into device_users (device_id, user_id) values
        ('00000000-0000-4000-8000-000000000004', '00000000-0000-4000-9000-000000000001');
      delete from users where id = '00000000-0000-4000-9000-000000000003';`);
    expect((await client.query(kept)).rows).toEqual([
      { device: '1', n: 1 },
      { device: '2', n: 2 },
      { device: '3', n: 2 },
      { device: '4', n: 1 },
    ]);
    expect(await deviceUserCountDrift(db)).toEqual([]);
    await client.close();
  });
});
