import { and, desc, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../db/index.ts';
import { alertEpisodes, alertReads, alerts, devices, deviceUsers } from '../../db/schema.ts';
import { epochMs, rawRows } from './raw-rows.ts';

export type NewAlert = typeof alerts.$inferInsert;
export type StoredAlert = typeof alerts.$inferSelect;

/** An alert as one user sees it. */
export interface VisibleAlert {
  id: string;
  deviceId: string;
  deviceName: string;
  alertType: string;
  alertTitle: string;
  alertMessage: string;
  recordedAt: Date;
  isRead: boolean;
}

export interface EpisodeKey {
  deviceId: string;
  alertType: string;
}

/** Insert alerts; a repeated (device, messageId) is skipped. Returns the rows stored now. */
export const insertAlerts = async (tx: Tx, rows: NewAlert[]): Promise<StoredAlert[]> =>
  rows.length === 0 ? [] : tx.insert(alerts).values(rows).onConflictDoNothing().returning();

/** Open episodes atomically: returns only those this call opened (not already open). */
export async function openEpisodes(tx: Tx, keys: EpisodeKey[], openedAt: Date): Promise<EpisodeKey[]> {
  if (keys.length === 0) return [];
  const rows = await rawRows(
    tx,
    sql`insert into ${alertEpisodes} (device_id, alert_type, opened_at)
      select k.device_id, k.alert_type, ${openedAt.toISOString()}::timestamptz
      from unnest(${sql.param(keys.map((k) => k.deviceId))}::uuid[], ${sql.param(keys.map((k) => k.alertType))}::text[])
        as k(device_id, alert_type)
      on conflict do nothing
      returning device_id::text, alert_type`,
    z.object({ device_id: z.string(), alert_type: z.string() }),
  );
  return rows.map((r) => ({ deviceId: r.device_id, alertType: r.alert_type }));
}

export async function closeEpisodes(tx: Tx, keys: EpisodeKey[]): Promise<void> {
  if (keys.length === 0) return;
  await tx.execute(
    sql`delete from ${alertEpisodes} e
      using unnest(${sql.param(keys.map((k) => k.deviceId))}::uuid[], ${sql.param(keys.map((k) => k.alertType))}::text[])
        as k(device_id, alert_type)
      where e.device_id = k.device_id and e.alert_type = k.alert_type`,
  );
}

export interface OfflineCandidate {
  deviceId: string;
  deviceName: string;
  lastUpdate: Date;
  userIds: string[];
}

/**
 * Open a DEVICE_OFFLINE episode for every active device whose newest reading is older than
 * `silentSince` but newer than `horizon`; returns the devices this call opened it for. Devices
 * being written right now are skipped (SKIP LOCKED): they are evidently online.
 */
export async function openOfflineEpisodes(
  tx: Tx,
  silentSince: Date,
  horizon: Date,
  now: Date,
): Promise<OfflineCandidate[]> {
  const rows = await rawRows(
    tx,
    sql`with candidates as (
        select id from ${devices}
        where is_valid and last_update < ${silentSince.toISOString()}::timestamptz
          and last_update >= ${horizon.toISOString()}::timestamptz
        for update skip locked
      ), opened as (
        insert into ${alertEpisodes} (device_id, alert_type, opened_at)
        select id, 'DEVICE_OFFLINE', ${now.toISOString()}::timestamptz from candidates
        on conflict do nothing
        returning device_id
      )
      select d.id::text as id, d.device_name,
        extract(epoch from d.last_update) * 1000 as last_update_ms,
        array(select du.user_id::text from ${deviceUsers} du where du.device_id = d.id) as user_ids
      from ${devices} d join opened o on o.device_id = d.id`,
    z.object({
      id: z.string(),
      device_name: z.string(),
      last_update_ms: epochMs,
      user_ids: z.array(z.string()),
    }),
  );
  return rows.map((r) => ({
    deviceId: r.id,
    deviceName: r.device_name,
    lastUpdate: new Date(r.last_update_ms),
    userIds: r.user_ids,
  }));
}

export interface AlertFilters {
  deviceId?: string;
  from?: Date;
  to?: Date;
}

/** Alerts of the user's devices (assigned now), with the user's own read state. */
function visibleTo(tx: Tx, userId: string) {
  return tx
    .select({
      id: alerts.id,
      deviceId: alerts.deviceId,
      deviceName: devices.deviceName,
      alertType: alerts.alertType,
      alertTitle: alerts.alertTitle,
      alertMessage: alerts.alertMessage,
      recordedAt: alerts.recordedAt,
      isRead: sql<boolean>`(${alertReads.alertId} is not null)`,
    })
    .from(alerts)
    .innerJoin(deviceUsers, and(eq(deviceUsers.deviceId, alerts.deviceId), eq(deviceUsers.userId, userId)))
    .innerJoin(devices, eq(devices.id, alerts.deviceId))
    .leftJoin(alertReads, and(eq(alertReads.alertId, alerts.id), eq(alertReads.userId, userId)));
}

const filterConditions = (f: AlertFilters): (SQL | undefined)[] => [
  f.deviceId ? eq(alerts.deviceId, f.deviceId) : undefined,
  f.from ? gte(alerts.recordedAt, f.from) : undefined,
  f.to ? lte(alerts.recordedAt, f.to) : undefined,
];

/** Newest first by when it happened; the id breaks ties so keyset paging is exact. */
const newestFirst = [desc(alerts.recordedAt), desc(alerts.id)];

export const listLatest = async (tx: Tx, userId: string, count: number): Promise<VisibleAlert[]> =>
  visibleTo(tx, userId)
    .orderBy(...newestFirst)
    .limit(count);

export interface Cursor {
  recordedAt: Date;
  id: string;
}

export const listPage = async (
  tx: Tx,
  userId: string,
  filters: AlertFilters,
  cursor: Cursor | undefined,
  limit: number,
): Promise<VisibleAlert[]> =>
  visibleTo(tx, userId)
    .where(
      and(
        ...filterConditions(filters),
        cursor
          ? sql`(${alerts.recordedAt}, ${alerts.id}) < (${cursor.recordedAt.toISOString()}::timestamptz, ${cursor.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(...newestFirst)
    .limit(limit);

export async function countVisible(tx: Tx, userId: string, filters: AlertFilters) {
  const [row] = await tx
    .select({
      total: sql<number>`count(*)::int`,
      unread: sql<number>`(count(*) filter (where ${alertReads.alertId} is null))::int`,
    })
    .from(alerts)
    .innerJoin(deviceUsers, and(eq(deviceUsers.deviceId, alerts.deviceId), eq(deviceUsers.userId, userId)))
    .leftJoin(alertReads, and(eq(alertReads.alertId, alerts.id), eq(alertReads.userId, userId)))
    .where(and(...filterConditions(filters)));
  return { total: row?.total ?? 0, unread: row?.unread ?? 0 };
}

/** Mark as read for this user only the given alerts of their devices not read yet; returns those ids. */
export async function markRead(tx: Tx, userId: string, alertIds: string[]): Promise<string[]> {
  if (alertIds.length === 0) return [];
  const rows = await rawRows(
    tx,
    sql`insert into ${alertReads} (alert_id, user_id)
      select a.id, ${userId}::uuid from ${alerts} a
      join ${deviceUsers} du on du.device_id = a.device_id and du.user_id = ${userId}::uuid
      where a.id = any(${sql.param(alertIds)}::uuid[])
      on conflict do nothing
      returning alert_id::text`,
    z.object({ alert_id: z.string() }),
  );
  return rows.map((r) => r.alert_id);
}
