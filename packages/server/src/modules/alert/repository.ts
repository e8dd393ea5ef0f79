import { and, desc, eq, gte, lte, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { z } from 'zod';
import { maySee } from '../../access/audience.ts';
import type { Db, Tx } from '../../db/index.ts';
import { onceFor, prepareByShape } from '../../db/once-for.ts';
import { rawRows } from '../../db/raw-rows.ts';
import { alertReads, alerts, devices } from '../../db/schema.ts';
import { type LifecycleRow, lifecycleColumns, type StoredAlert } from './rows.ts';

/**
 * Carers' reads and actions: the alerts of the devices a user may see (`maySee`), their own read
 * state, and the shared lifecycle. The engine's writes are in engine-repository.ts.
 */

/** An alert as one user sees it. */
export interface VisibleAlert extends LifecycleRow {
  deviceName: string;
  alertType: string;
  alertTitle: string;
  alertMessage: string;
  recordedAt: Date;
  /** When the server stored it (arrival), not when it happened. */
  createdAt: Date;
  isRead: boolean;
}

export interface ActingUser {
  userId: string;
  username: string;
}

/**
 * Acknowledge (`active` → `acknowledged`) or resolve (→ `resolved`) one alert of a device the
 * user is assigned to. Returns the updated row, or undefined when it was not in a state to move
 * (already acknowledged / resolved) or not the user's.
 */
export async function moveLifecycle(
  tx: Tx,
  alertId: string,
  to: 'acknowledged' | 'resolved',
  by: ActingUser,
  note: string | null,
  at: Date,
): Promise<LifecycleRow | undefined> {
  const visible = maySee(by.userId, alerts.deviceId);
  const [row] =
    to === 'acknowledged'
      ? await tx
          .update(alerts)
          .set({
            status: 'acknowledged',
            acknowledgedAt: at,
            acknowledgedBy: by.userId,
            acknowledgedByName: by.username,
            ackNote: note,
          })
          .where(and(eq(alerts.id, alertId), eq(alerts.status, 'active'), visible))
          .returning(lifecycleColumns)
      : await tx
          .update(alerts)
          .set({
            status: 'resolved',
            resolvedAt: at,
            resolvedBy: by.userId,
            resolvedByName: by.username,
            resolveNote: note,
            // Marked handled without an acknowledgement first: handling it is the acknowledgement.
            acknowledgedAt: sql`coalesce(${alerts.acknowledgedAt}, ${at.toISOString()}::timestamptz)`,
            acknowledgedBy: sql`coalesce(${alerts.acknowledgedBy}, ${by.userId}::uuid)`,
            acknowledgedByName: sql`coalesce(${alerts.acknowledgedByName}, ${by.username})`,
          })
          .where(and(eq(alerts.id, alertId), sql`${alerts.status} <> 'resolved'`, visible))
          .returning(lifecycleColumns);
  return row;
}

/** One alert as stored, if the user is assigned to its device. */
export async function alertFor(tx: Tx, userId: string, alertId: string): Promise<StoredAlert | undefined> {
  const [row] = await tx
    .select({ alert: alerts })
    .from(alerts)
    .where(and(eq(alerts.id, alertId), maySee(userId, alerts.deviceId)));
  return row?.alert;
}

/** One alert's shared state, if the user is assigned to its device. */
export async function lifecycleFor(
  tx: Tx,
  userId: string,
  alertId: string,
): Promise<LifecycleRow | undefined> {
  const [row] = await tx
    .select(lifecycleColumns)
    .from(alerts)
    .where(and(eq(alerts.id, alertId), maySee(userId, alerts.deviceId)));
  return row;
}

export interface AlertFilters {
  deviceId?: string;
  from?: Date;
  to?: Date;
  status?: StoredAlert['status'];
  priority?: StoredAlert['priority'];
}

/** Alerts of the user's devices (assigned now), with the user's own read state. */
function visibleTo(tx: Tx, userId: string | SQLWrapper, where?: SQL) {
  return tx
    .select({
      ...lifecycleColumns,
      deviceName: devices.deviceName,
      alertType: alerts.alertType,
      alertTitle: alerts.alertTitle,
      alertMessage: alerts.alertMessage,
      recordedAt: alerts.recordedAt,
      createdAt: alerts.createdAt,
      isRead: sql<boolean>`(${alertReads.alertId} is not null)`,
    })
    .from(alerts)
    .innerJoin(devices, eq(devices.id, alerts.deviceId))
    .leftJoin(alertReads, and(eq(alertReads.alertId, alerts.id), eq(alertReads.userId, userId)))
    .where(and(maySee(userId, alerts.deviceId), where));
}

const filterConditions = (f: AlertFilters): (SQL | undefined)[] => [
  f.deviceId ? eq(alerts.deviceId, f.deviceId) : undefined,
  f.from ? gte(alerts.recordedAt, f.from) : undefined,
  f.to ? lte(alerts.recordedAt, f.to) : undefined,
  f.status ? eq(alerts.status, f.status) : undefined,
  f.priority ? eq(alerts.priority, f.priority) : undefined,
];

/** Newest first by when it happened; the id breaks ties so keyset paging is exact. */
const newestFirst = [desc(alerts.recordedAt), desc(alerts.id)];

/**
 * What is new to a carer: the newest arrivals, so an SOS a device buffered for ten minutes still
 * lands on top (history pages keep device time); alerts stored together, newest device time first.
 * Asked on every signed-in page (the header's bell): prepared once a database.
 */
const latestList = (db: Db) =>
  visibleTo(db, sql.placeholder('userId'))
    .orderBy(desc(alerts.createdAt), ...newestFirst)
    .limit(sql.placeholder('count'))
    .prepare('list_latest_alerts');

export const listLatest = (db: Db, userId: string, count: number): Promise<VisibleAlert[]> =>
  onceFor(db, latestList).execute({ userId, count });

export interface Cursor {
  recordedAt: Date;
  id: string;
  /** With the priority order: the last alert's priority rank (0 high, 1 medium, 2 low). */
  rank?: number;
}

/** 0 for high, 1 for medium, 2 for low: the priority order. */
const rankOf = sql<number>`(case ${alerts.priority} when 'high' then 0 when 'medium' then 1 else 2 end)`;

/** Every unresolved alert of the user's devices: highest priority first, newest first within one. */
export const listOpen = async (tx: Tx, userId: string, limit: number): Promise<VisibleAlert[]> =>
  visibleTo(tx, userId, sql`${alerts.status} <> 'resolved'`)
    .orderBy(rankOf, ...newestFirst)
    .limit(limit);

export const listPage = async (
  tx: Tx,
  userId: string,
  filters: AlertFilters,
  cursor: Cursor | undefined,
  limit: number,
  byPriority = false,
): Promise<VisibleAlert[]> => {
  const after = cursor
    ? sql`(${alerts.recordedAt}, ${alerts.id}) < (${cursor.recordedAt.toISOString()}::timestamptz, ${cursor.id}::uuid)`
    : undefined;
  const keyset =
    cursor && byPriority
      ? sql`(${rankOf} > ${cursor.rank ?? 0} or (${rankOf} = ${cursor.rank ?? 0} and ${after}))`
      : after;
  return prepareByShape(
    'alerts_page',
    visibleTo(tx, userId, and(...filterConditions(filters), keyset))
      .orderBy(...(byPriority ? [rankOf, ...newestFirst] : newestFirst))
      .limit(limit),
  );
};

export async function countVisible(tx: Tx, userId: string, filters: AlertFilters) {
  const [row] = await prepareByShape(
    'alerts_count',
    tx
      .select({
        total: sql<number>`count(*)::int`,
        unread: sql<number>`(count(*) filter (where ${alertReads.alertId} is null))::int`,
      })
      .from(alerts)
      .leftJoin(alertReads, and(eq(alertReads.alertId, alerts.id), eq(alertReads.userId, userId)))
      .where(and(maySee(userId, alerts.deviceId), ...filterConditions(filters))),
  );
  return { total: row?.total ?? 0, unread: row?.unread ?? 0 };
}

/** Mark as read for this user only the given alerts of their devices not read yet; returns those ids. */
export async function markRead(tx: Tx, userId: string, alertIds: string[]): Promise<string[]> {
  if (alertIds.length === 0) return [];
  const rows = await rawRows(
    tx,
    sql`insert into ${alertReads} (alert_id, user_id)
      select a.id, ${userId}::uuid from ${alerts} a
      where a.id = any(${sql.param(alertIds)}::uuid[]) and ${maySee(userId, sql`a.device_id`)}
      on conflict do nothing
      returning alert_id::text`,
    z.object({ alert_id: z.string() }),
  );
  return rows.map((r) => r.alert_id);
}
