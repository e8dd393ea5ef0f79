import { CIRCLE_ROLES, type CircleRole } from '@vitalwatch/shared';
import { and, desc, eq, inArray, or, type SQLWrapper, sql } from 'drizzle-orm';
import { z } from 'zod';
import { userIdsOf as grantedTo, maySee } from '../../access/audience.ts';
import type { Db, Tx } from '../../db/index.ts';
import { isoTime } from '../../db/json-text.ts';
import { quickRead } from '../../db/pipelined-reads.ts';
import { preparedRows, rawRows } from '../../db/raw-rows.ts';
import { deviceNicknames, devices, deviceUsers, users } from '../../db/schema.ts';
import type { IsoTime } from '../../lib/iso-time.ts';

export type DeviceRow = typeof devices.$inferSelect;
export type NewDevice = typeof devices.$inferInsert;
/** A device with the ids of its users, oldest assignment first (the admin view). */
export type DeviceWithUsers = DeviceRow & { userIds: string[]; backupUserIds: string[] };
/** A device with how many users watch it, and the user's own place and name for it (the user view). */
export type DeviceWithCount = DeviceRow & {
  userCount: number;
  /** The user this view is of. */
  userId: string;
  circleRole: CircleRole;
  nickname: string | null;
};

const userIdsOf = sql<string[]>`array(
  select du.user_id::text from ${deviceUsers} du where du.device_id = ${devices.id} order by du.created_at, du.user_id
)`;
const backupUserIdsOf = sql<string[]>`array(
  select du.user_id::text from ${deviceUsers} du
  where du.device_id = ${devices.id} and du.contact_role = 'backup' order by du.created_at, du.user_id
)`;
/** How many users the device has, confirmed or not: kept by triggers (migration 0035), none kept is nought. */
const userCountOf = sql<number>`coalesce((select c.n from vw_counts.device_user_counts c where c.device_id = ${devices.id}), 0)`;

export const listDevicesWithUsers = async (tx: Tx): Promise<DeviceWithUsers[]> =>
  tx
    .select({ device: devices, userIds: userIdsOf, backupUserIds: backupUserIdsOf })
    .from(devices)
    .orderBy(desc(devices.createdAt), devices.id)
    .then((rows) => rows.map((r) => ({ ...r.device, userIds: r.userIds, backupUserIds: r.backupUserIds })));

export const findDeviceWithUsers = async (tx: Tx, id: string): Promise<DeviceWithUsers | undefined> =>
  tx
    .select({ device: devices, userIds: userIdsOf, backupUserIds: backupUserIdsOf })
    .from(devices)
    .where(eq(devices.id, id))
    .limit(1)
    .then(
      (rows) => rows.map((r) => ({ ...r.device, userIds: r.userIds, backupUserIds: r.backupUserIds }))[0],
    );

export const findDeviceByActivationCode = async (tx: Tx, code: string) =>
  (await tx.select().from(devices).where(eq(devices.activationCode, code)).limit(1))[0];

/** The devices with any of these API codes or ids (one query for a turn's worth of credential lookups). */
export const findDevicesByApiAuthCodesOrIds = (tx: Tx, apiAuthCodes: string[], ids: string[]) =>
  tx
    .select()
    .from(devices)
    .where(
      or(
        sql`${devices.apiAuthCode} = any(${sql.param(apiAuthCodes)}::text[])`,
        sql`${devices.id} = any(${sql.param(ids)}::uuid[])`,
      ),
    );

export const findDeviceById = async (tx: Tx, id: string) =>
  (await tx.select().from(devices).where(eq(devices.id, id)).limit(1))[0];

export const insertDevice = async (tx: Tx, device: NewDevice) =>
  (await tx.insert(devices).values(device).returning())[0]!;

export const updateDevice = async (tx: Tx, id: string, patch: Partial<NewDevice>) =>
  (
    await tx
      .update(devices)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(devices.id, id))
      .returning()
  )[0];

/** Deletes the device; its readings, alerts, episodes and assignments go with it (FK cascade). */
export const deleteDevice = async (tx: Tx, id: string): Promise<boolean> =>
  (await tx.delete(devices).where(eq(devices.id, id)).returning({ id: devices.id })).length === 1;

/** Everyone who sees the device, directly or through a team. */
export const grantedUserIds = async (tx: Tx, id: string): Promise<string[]> =>
  (
    await rawRows(
      tx,
      sql`select ${grantedTo(sql`${id}::uuid`)} as ids`,
      z.object({ ids: z.array(z.string()) }),
    )
  )[0]?.ids ?? [];

/** Roles of the given users; ids that are not users are simply absent. */
export const findUserRoles = async (tx: Tx, ids: string[]) =>
  ids.length === 0
    ? []
    : tx.select({ id: users.id, role: users.role }).from(users).where(inArray(users.id, ids));

/** Make the device's users exactly `userIds`, keeping the assignment time of those who stay. */
/** Make exactly these users assigned; returns who was added and who removed. */
export async function replaceAssignments(
  tx: Tx,
  deviceId: string,
  userIds: string[],
): Promise<{ added: string[]; removed: string[] }> {
  const current = (await tx.select().from(deviceUsers).where(eq(deviceUsers.deviceId, deviceId))).map(
    (r) => r.userId,
  );
  const stale = current.filter((id) => !userIds.includes(id));
  if (stale.length > 0) {
    await tx
      .delete(deviceUsers)
      .where(and(eq(deviceUsers.deviceId, deviceId), inArray(deviceUsers.userId, stale)));
  }
  if (userIds.length > 0) {
    await tx
      .insert(deviceUsers)
      .values(userIds.map((userId) => ({ deviceId, userId })))
      .onConflictDoNothing();
  }
  return { added: userIds.filter((id) => !current.includes(id)), removed: stale };
}

/** Make exactly these assigned users backup contacts, the rest primary; returns how many are backups. */
export async function setBackupContacts(tx: Tx, deviceId: string, backupIds: string[]): Promise<number> {
  const rows = await tx
    .update(deviceUsers)
    .set({
      contactRole: sql`case when ${deviceUsers.userId} = any(${sql.param(backupIds)}::uuid[]) then 'backup' else 'primary' end`,
    })
    .where(eq(deviceUsers.deviceId, deviceId))
    .returning({ role: deviceUsers.contactRole });
  return rows.filter((r) => r.role === 'backup').length;
}

/**
 * Assign one user by activation code; false when they already had the device. The device's row is
 * locked first, so of two people adding an ownerless device at once exactly one becomes its owner.
 * Anyone after the owner waits (`pending_since`) until an owner confirms them.
 */
export async function assignUser(tx: Tx, deviceId: string, userId: string): Promise<boolean> {
  await tx.execute(sql`select 1 from ${devices} where ${devices.id} = ${deviceId} for update`);
  const owned = await tx
    .select({ userId: deviceUsers.userId })
    .from(deviceUsers)
    .where(and(eq(deviceUsers.deviceId, deviceId), eq(deviceUsers.circleRole, 'owner')))
    .limit(1);
  const circleRole: CircleRole = owned.length === 0 ? 'owner' : 'carer';
  const added = await tx
    .insert(deviceUsers)
    .values({ deviceId, userId, circleRole, pendingSince: owned.length === 0 ? null : new Date() })
    .onConflictDoNothing()
    .returning({ userId: deviceUsers.userId });
  return added.length === 1;
}

/** Whether the user is assigned to the device and waits for an owner to confirm them. */
export const isPending = async (tx: Tx, deviceId: string, userId: string): Promise<boolean> =>
  (
    await tx
      .select({ pendingSince: deviceUsers.pendingSince })
      .from(deviceUsers)
      .where(and(eq(deviceUsers.deviceId, deviceId), eq(deviceUsers.userId, userId)))
  )[0]?.pendingSince != null;

/**
 * The user's own name for the device; null clears it. Kept with their assignment, or, for a device
 * they see through a care team only, in device_nicknames.
 */
export async function setNickname(tx: Tx, deviceId: string, userId: string, nickname: string | null) {
  const mine = and(eq(deviceUsers.deviceId, deviceId), eq(deviceUsers.userId, userId));
  const assigned = await tx
    .update(deviceUsers)
    .set({ nickname })
    .where(mine)
    .returning({ userId: deviceUsers.userId });
  if (assigned.length > 0) return;
  if (nickname === null) {
    await tx
      .delete(deviceNicknames)
      .where(and(eq(deviceNicknames.deviceId, deviceId), eq(deviceNicknames.userId, userId)));
    return;
  }
  await tx
    .insert(deviceNicknames)
    .values({ deviceId, userId, nickname })
    .onConflictDoUpdate({ target: [deviceNicknames.deviceId, deviceNicknames.userId], set: { nickname } });
}

/** A user's id, or the placeholder of a prepared statement that takes it. */
type UserRef = string | SQLWrapper;

/** The user's nickname for the device through a team, where they have no assignment. */
const teamNickname = (userId: UserRef) =>
  sql<string | null>`(select dn.nickname from ${deviceNicknames} dn
    where dn.device_id = ${devices.id} and dn.user_id = ${userId}::uuid)`;

/** A device seen through a care team only has no assignment row: its user is a carer with no nickname. */
const userView = (userId: string) => ({ device: devices, ...yourPlace(userId) });
/** How many watch the device, and the user's own place and name for it. */
const yourPlace = (userId: string) => ({
  userCount: userCountOf,
  userId: sql<string>`${userId}::text`,
  circleRole: sql<CircleRole>`coalesce(${deviceUsers.circleRole}, 'carer')`,
  nickname: sql<string | null>`coalesce(${deviceUsers.nickname}, ${teamNickname(userId)})`,
});
type UserViewRow = Omit<DeviceWithCount, keyof DeviceRow> & { device: DeviceRow };
const fromUserView = ({ device, ...mine }: UserViewRow): DeviceWithCount => ({ ...device, ...mine });

/**
 * What every view of a device shows: no codes, no alarm settings. Its times are dates as drizzle
 * reads them, or the text `toISOString` would write, as the user's list has PostgreSQL write them.
 */
export type DeviceBasics = Pick<DeviceRow, 'id' | 'deviceName' | 'isValid' | 'make' | 'model'> & {
  lastUpdate: IsoTime | null;
  createdAt: IsoTime;
  updatedAt: IsoTime;
};
/** What a user's list shows of each device (`presentUserDevice`). */
export type UserDeviceRow = DeviceBasics & Omit<DeviceWithCount, keyof DeviceRow>;

const userDeviceRow = z.object({
  id: z.string(),
  device_name: z.string(),
  is_valid: z.boolean(),
  last_update: z.string().nullable(),
  make: z.string().nullable(),
  model: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  user_count: z.number(),
  circle_role: z.enum(CIRCLE_ROLES),
  nickname: z.string().nullable(),
});

/**
 * The devices the user may see: assigned ones first, oldest assignment first, then those of their
 * teams by name. Only the columns the list shows, flat, in hand-written SQL: every column of 200
 * devices, nested and mapped one by one (the alarm settings' JSON too), was a third of the list's
 * CPU, and drizzle's mapping of the flat columns a fifth of what was left. The name through a team
 * joined once, not looked up per device: the nicknames table is small, so each lookup was a scan of
 * it, and on PGlite each scan's start asks the file system for the table's size (200 `fstat` calls
 * for a list of 200, now 5). Its times written as text by PostgreSQL (`isoTime`, 0.26 µs each):
 * read as dates, checked and written out again they cost the server about 1 µs each, 600 of them in
 * a list of 200. The users' counts joined once too: looked up one device at a time, a team's list
 * of 200 cost PostgreSQL 720 µs a call, joined 560. Asked on every dashboard visit: prepared (see
 * `preparedRows` for why), and a quick read, pipelined (`quickRead`), though its rows are the user's
 * devices: a care team's 200 take PostgreSQL about 0.6 ms, a family's 3 about 0.1.
 */
const userDevicesList = preparedRows(
  quickRead('list_user_devices'),
  sql`select ${devices.id}::text as id, ${devices.deviceName}, ${devices.isValid},
      ${isoTime(devices.lastUpdate)} as last_update, ${devices.make}, ${devices.model},
      ${isoTime(devices.createdAt)} as created_at, ${isoTime(devices.updatedAt)} as updated_at,
      coalesce(user_count.n, 0) as user_count, coalesce(${deviceUsers.circleRole}, 'carer') as circle_role,
      coalesce(${deviceUsers.nickname}, team_name.nickname) as nickname
    from ${devices}
    left join vw_counts.device_user_counts user_count on user_count.device_id = ${devices.id}
    left join ${deviceUsers}
      on ${deviceUsers.deviceId} = ${devices.id} and ${deviceUsers.userId} = ${sql.placeholder('userId')}::uuid
    left join ${deviceNicknames} team_name
      on team_name.device_id = ${devices.id} and team_name.user_id = ${sql.placeholder('userId')}::uuid
    where ${maySee(sql.placeholder('userId'), devices.id)}
    order by ${deviceUsers.createdAt} asc nulls last, ${devices.deviceName}, ${devices.id}`,
  userDeviceRow,
);

export const listUserDevices = async (db: Db, userId: string): Promise<UserDeviceRow[]> =>
  (await userDevicesList(db, { userId })).map((r) => ({
    id: r.id,
    deviceName: r.device_name,
    isValid: r.is_valid,
    lastUpdate: r.last_update,
    make: r.make,
    model: r.model,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    userCount: r.user_count,
    userId,
    circleRole: r.circle_role,
    nickname: r.nickname,
  }));

/**
 * The device if `userId` may see it, else undefined (the caller answers 404), with the caller's own
 * membership (role, nickname).
 */
export const findUserDevice = async (
  tx: Tx,
  userId: string,
  deviceId: string,
): Promise<DeviceWithCount | undefined> =>
  tx
    .select(userView(userId))
    .from(devices)
    .leftJoin(deviceUsers, and(eq(deviceUsers.deviceId, devices.id), eq(deviceUsers.userId, userId)))
    .where(and(eq(devices.id, deviceId), maySee(userId, devices.id)))
    .limit(1)
    .then((rows) => rows.map(fromUserView)[0]);
