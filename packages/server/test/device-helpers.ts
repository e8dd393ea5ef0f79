import type { AdminDevice } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { BuiltApp } from '../src/app.ts';
import { rawRows } from '../src/db/raw-rows.ts';
import { signup, type TestUser, unique } from './helpers.ts';

/** Create a device through the admin API; throws unless 201. */
export async function createDevice(
  built: BuiltApp,
  admin: TestUser,
  body: { deviceName?: string; isValid?: boolean; users?: string[]; backupUsers?: string[] } = {},
): Promise<AdminDevice> {
  const res = await built.app.inject({
    method: 'POST',
    url: '/api/v1/admin/add-device',
    headers: admin.auth,
    payload: { deviceName: unique("Dad's watch "), ...body },
  });
  if (res.statusCode !== 201) throw new Error(`add-device failed: ${res.statusCode} ${res.body}`);
  return res.json<{ data: { device: AdminDevice } }>().data.device;
}

/** A fresh user and a device assigned to them. */
export async function userWithDevice(built: BuiltApp, admin: TestUser, deviceName?: string) {
  const user = await signup(built);
  const device = await createDevice(built, admin, {
    users: [user.user._id],
    ...(deviceName ? { deviceName } : {}),
  });
  return { user, device };
}

/** POST readings (or anything) to the HTTP ingest endpoint with a device key. */
export const postHealth = (built: BuiltApp, apiKey: string | undefined, payload: unknown) =>
  built.app.inject({
    method: 'POST',
    url: '/api/v1/ingest/health',
    headers: apiKey === undefined ? {} : { 'x-api-key': apiKey },
    payload: payload as object,
  });

export const postAlert = (built: BuiltApp, apiKey: string | undefined, payload: unknown) =>
  built.app.inject({
    method: 'POST',
    url: '/api/v1/ingest/alert',
    headers: apiKey === undefined ? {} : { 'x-api-key': apiKey },
    payload: payload as object,
  });

/** Rows of a table for one device, straight from the database. */
export async function countRows(
  built: BuiltApp,
  table: 'health_records' | 'alerts' | 'alert_episodes',
  deviceId?: string,
): Promise<number> {
  // The time-series tables key devices by their compact `seq`.
  const key =
    table === 'health_records'
      ? sql`device_seq = (select seq from devices where id = ${deviceId}::uuid)`
      : sql`device_id = ${deviceId}::uuid`;
  const where = deviceId ? sql` where ${key}` : sql``;
  const result = await built.ctx.db.execute(sql`select count(*)::int as n from ${sql.raw(table)}${where}`);
  return z.object({ rows: z.tuple([z.object({ n: z.number() })]) }).parse(result).rows[0].n;
}

/** ISO time `ms` milliseconds from now (negative: in the past). */
export const isoFromNow = (ms: number) => new Date(Date.now() + ms).toISOString();

/**
 * `user` adds a device by its activation code (My Devices' 'Add Device'): 200 for the first, its
 * owner; 403 for anyone after, waiting for an owner to confirm them.
 */
export const addByCode = (built: BuiltApp, user: TestUser, activationCode: string, deviceName?: string) =>
  built.app.inject({
    method: 'POST',
    url: '/api/v1/device/add-device',
    headers: user.auth,
    payload: { data: { activationCode, ...(deviceName ? { deviceName } : {}) } },
  });

/** A device nobody has yet, added by `owner` with its activation code: they are its owner. */
export async function ownedDevice(
  built: BuiltApp,
  admin: TestUser,
  owner: TestUser,
  deviceName?: string,
): Promise<AdminDevice> {
  const device = await createDevice(built, admin, deviceName ? { deviceName } : {});
  const res = await addByCode(built, owner, device.activationCode);
  if (res.statusCode !== 200) throw new Error(`add-device failed: ${res.statusCode} ${res.body}`);
  return device;
}

/**
 * `user` adds the device by its code after its owner, which waits for an owner (care circle,
 * issue 26), and `owner` confirms them.
 */
export async function joinByCode(
  built: BuiltApp,
  owner: TestUser,
  user: TestUser,
  activationCode: string,
  deviceName?: string,
): Promise<void> {
  const added = await addByCode(built, user, activationCode, deviceName);
  if (added.statusCode !== 403)
    throw new Error(`add-device: expected pending, got ${added.statusCode} ${added.body}`);
  const device = await built.app.inject({
    method: 'POST',
    url: '/api/v1/device/get-device',
    headers: owner.auth,
  });
  const ids = (device.json() as { data: { devices: { _id: string; users: number }[] } }).data.devices.map(
    (d) => d._id,
  );
  for (const deviceId of ids) {
    const confirmed = await built.app.inject({
      method: 'POST',
      url: `/api/v1/circle/${deviceId}/confirm`,
      headers: owner.auth,
      payload: { userId: user.user._id },
    });
    if (confirmed.statusCode === 200) return;
  }
  throw new Error('no device of the owner had this user waiting');
}

/**
 * Devices whose count of users kept by migration 0035 differs from their rows in device_users, or
 * is kept at nought (none when exact).
 */
export const deviceUserCountDrift = (db: Parameters<typeof rawRows>[0]) =>
  rawRows(
    db,
    sql`select coalesce(e.device_id, k.device_id)::text as device_id, coalesce(e.n, 0)::int as counted,
          coalesce(k.n, 0)::int as kept
        from (select device_id, count(*) as n from device_users group by 1) e
        full join vw_counts.device_user_counts k on k.device_id = e.device_id
        where coalesce(e.n, 0) <> coalesce(k.n, 0) or k.n = 0`,
    z.object({ device_id: z.string(), counted: z.number(), kept: z.number() }),
  );
