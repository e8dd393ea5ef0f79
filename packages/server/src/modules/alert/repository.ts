import { type EscalationSettings, effectiveAlarmSettings } from '@vitalwatch/shared';
import { and, desc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { contactIdsOf, userIdsOf } from '../../db/device-audience.ts';
import type { Tx } from '../../db/index.ts';
import { epochMs, rawRows } from '../../db/raw-rows.ts';
import {
  alertEpisodes,
  alertEscalations,
  alertReads,
  alerts,
  devices,
  deviceUsers,
} from '../../db/schema.ts';
import type { ConditionState } from './conditions.ts';

export type StoredAlert = typeof alerts.$inferSelect;

/** The columns of an alert's shared state (what `presentLifecycle` shows). */
export type LifecycleRow = Pick<
  StoredAlert,
  | 'id'
  | 'deviceId'
  | 'priority'
  | 'status'
  | 'acknowledgedAt'
  | 'acknowledgedByName'
  | 'ackNote'
  | 'resolvedAt'
  | 'resolvedByName'
  | 'resolveNote'
>;

const lifecycleColumns = {
  id: alerts.id,
  deviceId: alerts.deviceId,
  priority: alerts.priority,
  status: alerts.status,
  acknowledgedAt: alerts.acknowledgedAt,
  acknowledgedByName: alerts.acknowledgedByName,
  ackNote: alerts.ackNote,
  resolvedAt: alerts.resolvedAt,
  resolvedByName: alerts.resolvedByName,
  resolveNote: alerts.resolveNote,
};

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

export interface EpisodeKey {
  deviceId: string;
  alertType: string;
}

/** A new alert: what the engine decides; the rest of the row starts empty. */
export type NewAlert = Pick<
  StoredAlert,
  'deviceId' | 'alertType' | 'alertTitle' | 'alertMessage' | 'recordedAt' | 'priority'
> & {
  messageId?: string | null;
  details?: Record<string, unknown>;
  status?: 'active' | 'resolved';
  resolvedAt?: Date | null;
};

const MINUTE_MS = 60_000;

const storedAlertRow = z.object({
  id: z.string(),
  device_id: z.string(),
  message_id: z.string().nullable(),
  alert_type: z.string(),
  alert_title: z.string(),
  alert_message: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
  priority: z.enum(['high', 'medium', 'low']),
  status: z.enum(['active', 'acknowledged', 'resolved']),
  resolved_ms: epochMs.nullable(),
  recorded_ms: epochMs,
  created_ms: epochMs,
});

/**
 * Insert alerts (a repeated (device, messageId) is skipped) and, in the same statement, the
 * escalation job of every new active high-priority one, from `escalation` of its device: one round
 * trip on the ingest path, and no alert that should escalate is ever stored without its job.
 * Returns the rows stored now.
 */
export async function insertAlerts(
  tx: Tx,
  rows: NewAlert[],
  escalation: (deviceId: string) => EscalationSettings | undefined = () => undefined,
  now: Date = new Date(),
): Promise<StoredAlert[]> {
  if (rows.length === 0) return [];
  const col = <T>(pick: (r: NewAlert) => T) => sql.param(rows.map(pick));
  const devicesWithJobs = [...new Set(rows.map((r) => r.deviceId))].flatMap((deviceId) => {
    const e = escalation(deviceId);
    return e ? [{ deviceId, ...e }] : [];
  });
  const job = <T>(pick: (j: (typeof devicesWithJobs)[number]) => T) => sql.param(devicesWithJobs.map(pick));
  const stored = await rawRows(
    tx,
    sql`with ins as (
        insert into ${alerts} (device_id, message_id, alert_type, alert_title, alert_message, details,
          priority, status, resolved_at, recorded_at)
        select n.device_id, n.message_id, n.alert_type, n.alert_title, n.alert_message, n.details::jsonb,
          n.priority, n.status, n.resolved_at, n.recorded_at
        from unnest(
          ${col((r) => r.deviceId)}::uuid[], ${col((r) => r.messageId ?? null)}::text[],
          ${col((r) => r.alertType)}::text[], ${col((r) => r.alertTitle)}::text[],
          ${col((r) => r.alertMessage)}::text[],
          ${col((r) => (r.details === undefined ? null : JSON.stringify(r.details)))}::text[],
          ${col((r) => r.priority)}::text[], ${col((r) => r.status ?? 'active')}::text[],
          ${col((r) => r.resolvedAt?.toISOString() ?? null)}::timestamptz[],
          ${col((r) => r.recordedAt.toISOString())}::timestamptz[]
        ) as n(device_id, message_id, alert_type, alert_title, alert_message, details, priority, status,
          resolved_at, recorded_at)
        on conflict do nothing
        returning *
      ), jobs as (
        insert into ${alertEscalations} (alert_id, next_at, backup_at, stops_at, repeat_every_ms)
        select ins.id, t + j.every_ms * interval '1 millisecond', t + j.backup_ms * interval '1 millisecond',
          t + j.for_ms * interval '1 millisecond', j.every_ms
        from ins
        join unnest(${job((j) => j.deviceId)}::uuid[], ${job((j) => j.repeatEveryMinutes * MINUTE_MS)}::int[],
          ${job((j) => j.backupAfterMinutes * MINUTE_MS)}::int[], ${job((j) => j.repeatForMinutes * MINUTE_MS)}::int[])
          as j(device_id, every_ms, backup_ms, for_ms) on j.device_id = ins.device_id
        cross join (select ${now.toISOString()}::timestamptz as t) clock
        where ins.priority = 'high' and ins.status = 'active'
        on conflict do nothing
      )
      select id::text, device_id::text, message_id, alert_type, alert_title, alert_message, details,
        priority, status, extract(epoch from resolved_at) * 1000 as resolved_ms,
        extract(epoch from recorded_at) * 1000 as recorded_ms, extract(epoch from created_at) * 1000 as created_ms
      from ins`,
    storedAlertRow,
  );
  return stored.map((r) => ({
    id: r.id,
    deviceId: r.device_id,
    messageId: r.message_id,
    alertType: r.alert_type,
    alertTitle: r.alert_title,
    alertMessage: r.alert_message,
    details: r.details,
    priority: r.priority,
    status: r.status,
    acknowledgedAt: null,
    acknowledgedBy: null,
    acknowledgedByName: null,
    ackNote: null,
    resolvedAt: r.resolved_ms === null ? null : new Date(r.resolved_ms),
    resolvedBy: null,
    resolvedByName: null,
    resolveNote: null,
    recordedAt: new Date(r.recorded_ms),
    createdAt: new Date(r.created_ms),
  }));
}

export interface ConditionChange {
  deviceId: string;
  alertType: string;
  state: ConditionState | null;
}

/** Write condition states (null: back to normal, the row goes). Run under the devices' row locks. */
export async function saveConditions(tx: Tx, changes: ConditionChange[]): Promise<void> {
  const gone = changes.filter((c) => c.state === null);
  const kept = changes.flatMap((c) => (c.state ? [{ ...c, state: c.state }] : []));
  if (gone.length > 0) {
    await tx.execute(
      sql`delete from ${alertEpisodes} e
        using unnest(${sql.param(gone.map((k) => k.deviceId))}::uuid[], ${sql.param(gone.map((k) => k.alertType))}::text[])
          as k(device_id, alert_type)
        where e.device_id = k.device_id and e.alert_type = k.alert_type`,
    );
  }
  if (kept.length > 0) {
    await tx.execute(
      sql`insert into ${alertEpisodes} (device_id, alert_type, phase, since, priority, seen_at, calm_since)
        select * from unnest(
          ${sql.param(kept.map((k) => k.deviceId))}::uuid[],
          ${sql.param(kept.map((k) => k.alertType))}::text[],
          ${sql.param(kept.map((k) => k.state.phase))}::text[],
          ${sql.param(kept.map((k) => k.state.since.toISOString()))}::timestamptz[],
          ${sql.param(kept.map((k) => k.state.priority))}::text[],
          ${sql.param(kept.map((k) => k.state.seenAt.toISOString()))}::timestamptz[],
          ${sql.param(kept.map((k) => k.state.calmSince?.toISOString() ?? null))}::timestamptz[])
        on conflict (device_id, alert_type) do update
          set phase = excluded.phase, since = excluded.since, priority = excluded.priority,
            seen_at = excluded.seen_at, calm_since = excluded.calm_since`,
    );
  }
}

/**
 * An episode ended by itself: every unresolved alert of those (device, type) pairs is resolved
 * (by nobody). Returns their new state, for everyone's screens.
 */
export async function resolveEpisodeAlerts(tx: Tx, keys: EpisodeKey[], at: Date): Promise<LifecycleRow[]> {
  if (keys.length === 0) return [];
  return tx
    .update(alerts)
    .set({ status: 'resolved', resolvedAt: at })
    .where(
      and(
        sql`${alerts.status} <> 'resolved'`,
        sql`(${alerts.deviceId}, ${alerts.alertType}) in (select * from unnest(${sql.param(keys.map((k) => k.deviceId))}::uuid[], ${sql.param(keys.map((k) => k.alertType))}::text[]))`,
      ),
    )
    .returning(lifecycleColumns);
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
  const visible = sql`exists (select 1 from ${deviceUsers} du where du.device_id = ${alerts.deviceId} and du.user_id = ${by.userId}::uuid)`;
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

/** Everyone assigned to a device (all of them see an alert's new state). */
export async function audienceOf(tx: Tx, deviceId: string) {
  const rows = await tx
    .select({ userId: deviceUsers.userId, role: deviceUsers.contactRole })
    .from(deviceUsers)
    .where(eq(deviceUsers.deviceId, deviceId));
  const userIds = rows.map((r) => r.userId);
  const primary = rows.filter((r) => r.role === 'primary').map((r) => r.userId);
  return { deviceId, userIds, contactIds: primary.length > 0 ? primary : userIds };
}

/** One alert as stored, if the user is assigned to its device. */
export async function alertFor(tx: Tx, userId: string, alertId: string): Promise<StoredAlert | undefined> {
  const [row] = await tx
    .select({ alert: alerts })
    .from(alerts)
    .innerJoin(deviceUsers, and(eq(deviceUsers.deviceId, alerts.deviceId), eq(deviceUsers.userId, userId)))
    .where(eq(alerts.id, alertId));
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
    .innerJoin(deviceUsers, and(eq(deviceUsers.deviceId, alerts.deviceId), eq(deviceUsers.userId, userId)))
    .where(eq(alerts.id, alertId));
  return row;
}

export interface OfflineCandidate {
  deviceId: string;
  deviceName: string;
  lastUpdate: Date;
  userIds: string[];
  contactIds: string[];
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
        insert into ${alertEpisodes} (device_id, alert_type, phase, since, priority, opened_at)
        select id, 'DEVICE_OFFLINE', 'active', ${now.toISOString()}::timestamptz, 'low', ${now.toISOString()}::timestamptz
        from candidates
        on conflict do nothing
        returning device_id
      )
      select d.id::text as id, d.device_name,
        extract(epoch from d.last_update) * 1000 as last_update_ms,
        array(select du.user_id::text from ${deviceUsers} du where du.device_id = d.id) as user_ids,
        ${contactIdsOf(sql`d.id`)} as contact_ids
      from ${devices} d join opened o on o.device_id = d.id`,
    z.object({
      id: z.string(),
      device_name: z.string(),
      last_update_ms: epochMs,
      user_ids: z.array(z.string()),
      contact_ids: z.array(z.string()),
    }),
  );
  return rows.map((r) => ({
    deviceId: r.id,
    deviceName: r.device_name,
    lastUpdate: new Date(r.last_update_ms),
    userIds: r.user_ids,
    contactIds: r.contact_ids,
  }));
}

export interface AlertFilters {
  deviceId?: string;
  from?: Date;
  to?: Date;
  status?: StoredAlert['status'];
  priority?: StoredAlert['priority'];
}

/** Alerts of the user's devices (assigned now), with the user's own read state. */
function visibleTo(tx: Tx, userId: string) {
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
    .innerJoin(deviceUsers, and(eq(deviceUsers.deviceId, alerts.deviceId), eq(deviceUsers.userId, userId)))
    .innerJoin(devices, eq(devices.id, alerts.deviceId))
    .leftJoin(alertReads, and(eq(alertReads.alertId, alerts.id), eq(alertReads.userId, userId)));
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
 */
export const listLatest = async (tx: Tx, userId: string, count: number): Promise<VisibleAlert[]> =>
  visibleTo(tx, userId)
    .orderBy(desc(alerts.createdAt), ...newestFirst)
    .limit(count);

export interface Cursor {
  recordedAt: Date;
  id: string;
  /** With the priority order: the last alert's priority rank (0 high, 1 medium, 2 low). */
  rank?: number;
}

/** 0 for high, 1 for medium, 2 for low: the priority order. */
const rankOf = sql<number>`(case ${alerts.priority} when 'high' then 0 when 'medium' then 1 else 2 end)`;

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
  return visibleTo(tx, userId)
    .where(and(...filterConditions(filters), keyset))
    .orderBy(...(byPriority ? [rankOf, ...newestFirst] : newestFirst))
    .limit(limit);
};

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

/** Name, validity, audience and escalation settings of one device, for device-raised alerts. */
export async function deviceAudience(tx: Tx, id: string) {
  const [row] = await tx
    .select({
      deviceName: devices.deviceName,
      isValid: devices.isValid,
      alarmSettings: devices.alarmSettings,
      userIds: userIdsOf(devices.id),
      contactIds: contactIdsOf(devices.id),
    })
    .from(devices)
    .where(inArray(devices.id, [id]));
  return row && { ...row, alarmSettings: effectiveAlarmSettings(row.alarmSettings) };
}
