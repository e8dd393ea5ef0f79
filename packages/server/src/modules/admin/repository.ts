import type { AdminStats, Role, UserGrowthEntry } from '@vitalwatch/shared';
import { asc, count, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../db/index.ts';
import {
  alertReads,
  alerts,
  devices,
  deviceUsers,
  pushSubscriptions,
  recoveryCodes,
  users,
} from '../../db/schema.ts';

const statsRows = z.object({
  rows: z.array(
    z.object({
      usersCount: z.coerce.number().int(),
      devicesCount: z.coerce.number().int(),
      alertsUnreadCount: z.coerce.number().int(),
    }),
  ),
});

/** Platform totals; an alert stays unread (active) until any user has read it (only assigned users can). */
export async function platformStats(tx: Tx): Promise<Omit<AdminStats, 'channelHealth'>> {
  const result = await tx.execute(sql`
    select
      (select count(*) from ${users}) as "usersCount",
      (select count(*) from ${devices}) as "devicesCount",
      (select count(*) from ${alerts} where not exists (
        select 1 from ${alertReads} where ${alertReads.alertId} = ${alerts.id})) as "alertsUnreadCount"`);
  const [row] = statsRows.parse(result).rows;
  if (!row) throw new Error('stats query returned no row');
  return row;
}

const growthRows = z.object({
  rows: z.array(z.object({ date: z.string(), users: z.coerce.number().int() })),
});

/**
 * New users per calendar day in `timeZone`, for the `days` days ending today (there), oldest
 * first, empty days included. Each day is a range of instants so the created_at index is used.
 */
export async function usersPerDay(tx: Tx, timeZone: string, days: number): Promise<UserGrowthEntry[]> {
  const result = await tx.execute(sql`
    with today as (select (now() at time zone ${timeZone})::date as d),
    series as (
      select (today.d - n)::date as day from today, generate_series(0, ${days - 1}::int) as n
    )
    select to_char(series.day, 'YYYY-MM-DD') as date,
      (select count(*) from ${users}
        where ${users.createdAt} >= (series.day::timestamp at time zone ${timeZone})
          and ${users.createdAt} < ((series.day + 1)::timestamp at time zone ${timeZone})) as users
    from series
    order by series.day`);
  return growthRows.parse(result).rows;
}

export type AdminUserRow = typeof users.$inferSelect;

export const listUsers = async (tx: Tx, role?: Role): Promise<AdminUserRow[]> =>
  tx
    .select()
    .from(users)
    .where(role ? eq(users.role, role) : undefined)
    .orderBy(asc(users.createdAt), asc(users.id));

/** Push subscription ids per user, oldest first. */
export async function subscriptionIdsByUser(tx: Tx): Promise<Map<string, string[]>> {
  const rows = await tx
    .select({ id: pushSubscriptions.id, userId: pushSubscriptions.userId })
    .from(pushSubscriptions)
    .orderBy(asc(pushSubscriptions.createdAt));
  const byUser = new Map<string, string[]>();
  for (const row of rows) byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row.id]);
  return byUser;
}

/** Rows per user in a table with a `user_id` (device assignments, recovery codes). */
async function countsByUser(
  tx: Tx,
  table: typeof deviceUsers | typeof recoveryCodes,
): Promise<Map<string, number>> {
  const rows = await tx.select({ userId: table.userId, n: count() }).from(table).groupBy(table.userId);
  return new Map(rows.map((r) => [r.userId, Number(r.n)]));
}

export const deviceCountsByUser = (tx: Tx) => countsByUser(tx, deviceUsers);
export const recoveryCodeCountsByUser = (tx: Tx) => countsByUser(tx, recoveryCodes);

export const deviceCountOf = async (tx: Tx, userId: string): Promise<number> =>
  Number(
    (await tx.select({ n: count() }).from(deviceUsers).where(eq(deviceUsers.userId, userId)))[0]?.n ?? 0,
  );

/**
 * Ids of all admins, rows locked until the transaction ends: two admins demoting or deleting
 * each other at once cannot both pass the "not the last admin" check.
 */
export const lockAdmins = async (tx: Tx): Promise<string[]> =>
  (await tx.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).for('update')).map(
    (r) => r.id,
  );

/** Deleting the row cascades to refresh tokens, push subscriptions, device assignments and read marks. */
export const deleteUser = async (tx: Tx, id: string): Promise<boolean> =>
  (await tx.delete(users).where(eq(users.id, id)).returning({ id: users.id })).length === 1;
