import type { AccountLinkPurpose } from '@vitalwatch/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { visibleDeviceIds } from '../../access/audience.ts';
import type { Db, Tx } from '../../db/index.ts';
import { rawRows } from '../../db/raw-rows.ts';
import { accountLinks, devices, deviceUsers, loginClients, users } from '../../db/schema.ts';
import { pages } from '../../lib/pages.ts';

const uuidText = z.string();
const maybe = z.string().nullable();

/** The account that uses this (lower-case) address, if any. */
export const accountByEmail = async (tx: Tx, email: string) =>
  (
    await tx
      .select({ id: users.id, email: users.email, fullName: users.fullName })
      .from(users)
      .where(eq(users.email, email))
      .limit(1)
  )[0];

export const insertLink = async (
  tx: Tx,
  link: {
    userId: string | null;
    purpose: AccountLinkPurpose;
    tokenHash: string;
    email: string;
    expiresAt: Date;
  },
) => {
  await tx.insert(accountLinks).values(link);
};

export const findLink = async (tx: Tx, tokenHash: string, purpose: AccountLinkPurpose) =>
  (
    await tx
      .select()
      .from(accountLinks)
      .where(and(eq(accountLinks.tokenHash, tokenHash), eq(accountLinks.purpose, purpose)))
      .limit(1)
  )[0];

/** Spends the link if it still works (one statement: two uses racing, one wins); its row, else undefined. */
export const spendLink = async (tx: Tx, id: string) =>
  (
    await tx
      .update(accountLinks)
      .set({ usedAt: new Date() })
      .where(
        and(eq(accountLinks.id, id), isNull(accountLinks.usedAt), sql`${accountLinks.expiresAt} > now()`),
      )
      .returning()
  )[0];

/** Links a day past their end go (decoys included). */
export const pruneLinks = async (tx: Tx) => {
  await tx.delete(accountLinks).where(sql`${accountLinks.expiresAt} < now() - interval '1 day'`);
};

/** Every unused link of that purpose stops working (a new password makes older reset links moot). */
export const spendLinksOf = async (tx: Tx, userId: string, purpose: AccountLinkPurpose) => {
  await tx
    .update(accountLinks)
    .set({ usedAt: new Date() })
    .where(
      and(eq(accountLinks.userId, userId), eq(accountLinks.purpose, purpose), isNull(accountLinks.usedAt)),
    );
};

/** The address is proved, if it is still the account's. */
export const markVerified = async (tx: Tx, userId: string, email: string) => {
  await tx
    .update(users)
    .set({ emailVerifiedAt: new Date() })
    .where(and(eq(users.id, userId), eq(users.email, email)));
};

export const upsertClient = async (
  db: Db,
  c: { family: string; userId: string; userAgent: string | null; ip: string | null },
) => {
  await db
    .insert(loginClients)
    .values({ ...c, lastSeenAt: new Date() })
    .onConflictDoUpdate({
      target: loginClients.family,
      set: { userAgent: c.userAgent, ip: c.ip, lastSeenAt: new Date() },
    });
};

/** The user's logins that still hold a live refresh token, most recently used first. */
export const liveSessions = (db: Db, userId: string) =>
  rawRows(
    db,
    sql`select rt.family::text as id, lc.user_agent, lc.ip,
        min(rt.created_at) as signed_in, greatest(max(rt.created_at), max(lc.last_seen_at)) as last_used
      from refresh_tokens rt left join ${loginClients} lc on lc.family = rt.family
      where rt.user_id = ${userId}::uuid
      group by rt.family, lc.user_agent, lc.ip
      having bool_or(rt.revoked_at is null and rt.expires_at > now())
      order by last_used desc`,
    z.object({
      id: uuidText,
      user_agent: maybe,
      ip: maybe,
      signed_in: z.coerce.date(),
      last_used: z.coerce.date(),
    }),
  );

/**
 * Devices the user owns alone pass to their next carer (the earliest-added, ties by id): returns
 * who got which (never someone still waiting for an owner to confirm them). A device with no other
 * owner and no carer keeps no owner (the admin's to manage).
 */
export const passSoleOwnedDevices = (tx: Tx, userId: string) =>
  rawRows(
    tx,
    sql`update ${deviceUsers} du set circle_role = 'owner'
      from (
        select distinct on (d.device_id) d.device_id, d.user_id from ${deviceUsers} d
        where d.user_id <> ${userId}::uuid and d.circle_role = 'carer' and d.pending_since is null
          and exists (select 1 from ${deviceUsers} mine
            where mine.device_id = d.device_id and mine.user_id = ${userId}::uuid and mine.circle_role = 'owner')
          and not exists (select 1 from ${deviceUsers} o
            where o.device_id = d.device_id and o.user_id <> ${userId}::uuid and o.circle_role = 'owner')
        order by d.device_id, d.created_at, d.user_id
      ) heir
      where du.device_id = heir.device_id and du.user_id = heir.user_id
      returning du.device_id::text as device_id, du.user_id::text as user_id`,
    z.object({ device_id: uuidText, user_id: uuidText }),
  );

export const lockAdmins = async (tx: Tx): Promise<string[]> =>
  (await tx.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).for('update')).map(
    (r) => r.id,
  );

/** Deleting the row cascades to sessions, push subscriptions, share links, memberships and links. */
export const deleteUser = async (tx: Tx, id: string): Promise<boolean> =>
  (await tx.delete(users).where(eq(users.id, id)).returning({ id: users.id })).length === 1;

// ---- the data download ----

/** The user's memberships: each device with the user's own place in its circle. */
export const memberships = (db: Db, userId: string) =>
  db
    .select({
      deviceId: devices.id,
      deviceName: devices.deviceName,
      isValid: devices.isValid,
      lastUpdate: devices.lastUpdate,
      circleRole: deviceUsers.circleRole,
      contactRole: deviceUsers.contactRole,
      nickname: deviceUsers.nickname,
      since: deviceUsers.createdAt,
    })
    .from(deviceUsers)
    .innerJoin(devices, eq(devices.id, deviceUsers.deviceId))
    .where(eq(deviceUsers.userId, userId))
    .orderBy(deviceUsers.createdAt, devices.id);

/** Everyone in the circles of these devices: name, role, how they get alerts, since when. */
export const circleMembers = (db: Db, deviceIds: string[]) =>
  deviceIds.length === 0
    ? Promise.resolve([])
    : rawRows(
        db,
        sql`select du.device_id::text as device_id, u.full_name, du.circle_role, du.contact_role,
            du.created_at as since
          from ${deviceUsers} du join ${users} u on u.id = du.user_id
          where du.device_id in (${sql.join(
            deviceIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})
          order by du.device_id, du.created_at, u.id`,
        z.object({
          device_id: uuidText,
          full_name: z.string(),
          circle_role: z.string(),
          contact_role: z.string(),
          since: z.coerce.date(),
        }),
      );

const PAGE_ROWS = 2_000;

const timelineRow = z.object({
  id: z.string(),
  alert_id: z.string(),
  at: z.coerce.date(),
  kind: z.string(),
  user_name: maybe,
  channel: maybe,
  ok: z.boolean().nullable(),
  detail: maybe,
});

/** The timeline events (notified, shown, opened, escalated) of every alert of the device, a page at a time. */
export const alertEventPages = (db: Db, deviceId: string) =>
  pages<z.infer<typeof timelineRow>>(
    (after) =>
      rawRows(
        db,
        sql`select e.id::text as id, e.alert_id::text as alert_id, e.at, e.kind, e.user_name, e.channel, e.ok, e.detail
          from alert_events e join alerts a on a.id = e.alert_id
          where a.device_id = ${deviceId}::uuid ${after ? sql`and e.id > ${after.id}::bigint` : sql``}
          order by e.id limit ${PAGE_ROWS}`,
        timelineRow,
      ),
    PAGE_ROWS,
  );

const auditRow = z.object({
  id: z.string(),
  at: z.coerce.date(),
  action: z.string(),
  outcome: z.string(),
  actor_id: maybe,
  actor_name: maybe,
  target_type: maybe,
  target_id: maybe,
  ip: maybe,
  detail: z.unknown(),
});

/** Audit entries the user did or that were done to their account, oldest first, a page at a time. */
export const auditPages = (db: Db, userId: string) =>
  pages<z.infer<typeof auditRow>>(
    (after) =>
      rawRows(
        db,
        sql`select id::text as id, at, action, outcome, actor_id::text as actor_id, actor_name,
            target_type, target_id, ip, detail
          from audit_events
          where (actor_id = ${userId}::uuid or (target_type = 'user' and target_id = ${userId}))
            ${after ? sql`and (at, id) > (${after.at.toISOString()}::timestamptz, ${after.id}::bigint)` : sql``}
          order by at, id limit ${PAGE_ROWS}`,
        auditRow,
      ),
    PAGE_ROWS,
  );

/** Every device the user may see (their own and their teams'), by name. */
export const visibleDevices = (db: Db, userId: string) =>
  db
    .select({ id: devices.id, deviceName: devices.deviceName, isValid: devices.isValid })
    .from(devices)
    .where(sql`${devices.id} in ${visibleDeviceIds(userId)}`)
    .orderBy(devices.deviceName, devices.id);
