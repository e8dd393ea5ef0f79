import { type EscalationSettings, effectiveAlarmSettings } from '@vitalwatch/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { contactIdsOf, userIdsOf } from '../../access/audience.ts';
import type { Tx } from '../../db/index.ts';
import { columnsOf, epochMs, rawRows } from '../../db/raw-rows.ts';
import { alertEpisodes, alertEscalations, alerts, devices } from '../../db/schema.ts';
import type { Audience } from '../../lib/events.ts';
import type { ConditionState } from './conditions.ts';
import { type LifecycleRow, lifecycleColumns, type StoredAlert } from './rows.ts';

/**
 * The alert engine's writes: alerts raised with their escalation jobs, condition episodes opened
 * and closed, and who hears of a device. Carers' reads are in repository.ts.
 */

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
  const col = columnsOf(rows);
  const devicesWithJobs = [...new Set(rows.map((r) => r.deviceId))].flatMap((deviceId) => {
    const e = escalation(deviceId);
    return e ? [{ deviceId, ...e }] : [];
  });
  const job = columnsOf(devicesWithJobs);
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

/** Everyone assigned to a device and its primary contacts (all of them see an alert's new state). */
export async function audienceOf(tx: Tx, deviceId: string): Promise<Audience> {
  const [row] = await tx
    .select({ userIds: userIdsOf(devices.id), contactIds: contactIdsOf(devices.id) })
    .from(devices)
    .where(eq(devices.id, deviceId));
  return { deviceId, userIds: row?.userIds ?? [], contactIds: row?.contactIds ?? [] };
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
        ${userIdsOf(sql`d.id`)} as user_ids,
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
