import { type AlarmSettings, effectiveAlarmSettings } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { contactIdsOf, userIdsOf } from '../../access/audience.ts';
import type { Tx } from '../../db/index.ts';
import { epochMs, preparedRows } from '../../db/raw-rows.ts';
import { alertEpisodes, devices, healthRecords } from '../../db/schema.ts';
import type { ConditionState } from '../alert/service.ts';
import { LATE_READING_MS } from './history-cache.ts';
import { addToRollups } from './rollups.ts';

/** A device as the writer sees it while holding its row lock. */
export interface LockedDevice {
  id: string;
  /** The compact key readings and rollups are stored under. */
  seq: number;
  deviceName: string;
  isValid: boolean;
  lastUpdate: Date | null;
  userIds: string[];
  /** Primary contacts: notified of every alert. */
  contactIds: string[];
  /** Alarm conditions that are not quietly normal, by alert type. */
  conditions: Map<string, ConditionState>;
  alarmSettings: AlarmSettings;
}

const episodeRow = z.object({
  type: z.string(),
  phase: z.enum(['pending', 'active', 'clearing']),
  since_ms: epochMs,
  priority: z.enum(['high', 'medium', 'low']),
  seen_ms: epochMs,
  calm_ms: epochMs.nullable(),
});

const deviceEpisodeRow = episodeRow.extend({ device_id: z.string() });

const lockedRow = z.object({
  id: z.string(),
  seq: z.number().int(),
  device_name: z.string(),
  is_valid: z.boolean(),
  last_ms: epochMs.nullable(),
  alarm_settings: z.unknown(),
  user_ids: z.array(z.string()),
  contact_ids: z.array(z.string()),
});

// Hand-written rather than the query builder: mapping its result cost more than the query.
const selectLocked = preparedRows(
  'vw_lock_devices',
  sql`select d.id::text, d.seq, d.device_name, d.is_valid, extract(epoch from d.last_update) * 1000 as last_ms,
      d.alarm_settings, ${userIdsOf(sql`d.id`)} as user_ids, ${contactIdsOf(sql`d.id`)} as contact_ids
    from ${devices} d where d.id = any(${sql.placeholder('ids')}::uuid[])
    order by d.id for update of d`,
  lockedRow,
);

// A statement of its own, run after the locks are held: on PostgreSQL a statement that waited for
// a lock sees the locked rows' new versions but reads everything else as of its start, so the
// conditions a concurrent writer just committed would be missed.
const selectEpisodes = preparedRows(
  'vw_device_episodes',
  sql`select e.device_id::text, e.alert_type as type, e.phase,
      extract(epoch from e.since) * 1000 as since_ms, e.priority,
      extract(epoch from e.seen_at) * 1000 as seen_ms, extract(epoch from e.calm_since) * 1000 as calm_ms
    from ${alertEpisodes} e where e.device_id = any(${sql.placeholder('ids')}::uuid[])`,
  deviceEpisodeRow,
);

/**
 * Lock the devices' rows, in id order so concurrent writers (on any node) never deadlock, and
 * read what the batch needs in the same round trip. Holding the lock serialises every write for
 * a device: its newest reading and its open episodes cannot change under the alert engine, and
 * its validity is the committed one. Deleted devices are simply absent.
 */
export async function lockDevices(tx: Tx, ids: string[]): Promise<LockedDevice[]> {
  const rows = await selectLocked(tx, { ids });
  if (rows.length === 0) return [];
  const episodes = await selectEpisodes(tx, { ids: rows.map((r) => r.id) });
  return rows.map((d) => ({
    id: d.id,
    seq: d.seq,
    deviceName: d.device_name,
    isValid: d.is_valid,
    lastUpdate: d.last_ms === null ? null : new Date(d.last_ms),
    userIds: d.user_ids,
    contactIds: d.contact_ids,
    alarmSettings: effectiveAlarmSettings(d.alarm_settings),
    conditions: new Map(
      episodes
        .filter((e) => e.device_id === d.id)
        .map((e) => [
          e.type,
          {
            phase: e.phase,
            since: new Date(e.since_ms),
            priority: e.priority,
            seenAt: new Date(e.seen_ms),
            calmSince: e.calm_ms === null ? null : new Date(e.calm_ms),
          },
        ]),
    ),
  }));
}

/** A reading ready to store: validated, `recordedAt` resolved. */
export interface ReadingRow {
  deviceId: string;
  messageId: string | null;
  recordedAt: Date;
  /** The device sent no `recordedAt`: it is the arrival time, and a retry of it arrives later. */
  stampedOnArrival: boolean;
  spo2: number | null;
  heartRate: number | null;
  temperature: number | null;
  battery: number | null;
}

export interface StoredReading extends Omit<ReadingRow, 'stampedOnArrival'> {
  id: string;
}

const storedRow = z.object({
  id: z.string(),
  device_seq: z.number().int(),
  message_id: z.string().nullable(),
  recorded_ms: epochMs,
  spo2: z.number().nullable(),
  heart_rate: z.number().nullable(),
  temperature: z.number().nullable(),
  battery: z.number().nullable(),
});

/**
 * How long after a reading stamped on arrival its retry is still recognised by the messageId (a
 * dated reading's retry carries the same `recordedAt`, and is recognised for as long as it is kept).
 */
const UNDATED_RETRY_WINDOW = sql.raw(`interval '15 minutes'`);

/** The batch's columns, each one array parameter; besides them `deviceSeqs`, the devices by seq. */
const COLUMNS = {
  messageIds: (r: ReadingRow) => r.messageId,
  recordedAts: (r: ReadingRow) => r.recordedAt.toISOString(),
  stamped: (r: ReadingRow) => r.stampedOnArrival,
  spo2s: (r: ReadingRow) => r.spo2,
  heartRates: (r: ReadingRow) => r.heartRate,
  temperatures: (r: ReadingRow) => r.temperature,
  batteries: (r: ReadingRow) => r.battery,
} satisfies Record<string, (r: ReadingRow) => unknown>;
const column = (name: keyof typeof COLUMNS | 'deviceSeqs') => sql.placeholder(name);
const LATE = sql.raw(`interval '${LATE_READING_MS / 1000} seconds'`);

const insertBatch = preparedRows(
  'vw_insert_readings',
  sql`with input as (
      select * from unnest(
        ${column('deviceSeqs')}::int[],
        ${column('messageIds')}::text[],
        ${column('recordedAts')}::timestamptz[],
        ${column('stamped')}::bool[],
        ${column('spo2s')}::real[],
        ${column('heartRates')}::real[],
        ${column('temperatures')}::real[],
        ${column('batteries')}::real[]
      ) with ordinality as t(device_seq, message_id, recorded_at, stamped, spo2, heart_rate, temperature, battery, ord)
    ), ins as (
      insert into ${healthRecords} (recorded_at, device_seq, spo2, heart_rate, temperature, battery, message_id)
      select i.recorded_at, i.device_seq, i.spo2, i.heart_rate, i.temperature, i.battery, i.message_id
      from input i
      left join lateral (
        select true as stored from ${healthRecords} h
        where i.message_id is not null and h.device_seq = i.device_seq and h.message_id = i.message_id
          and h.recorded_at <= i.recorded_at
          and h.recorded_at >= case when i.stamped then i.recorded_at - ${UNDATED_RETRY_WINDOW} else i.recorded_at end
        limit 1
      ) dup on true
      where dup.stored is null
      -- Ids follow the batch's order: readings of one instant keep the order they were sent in.
      order by i.ord
      returning id, device_seq, message_id, recorded_at, spo2, heart_rate, temperature, battery
    ), newest as (
      -- The battery follows the batch's newest reading that has one, unless a stored reading is newer.
      -- A late reading (see LATE_READING_MS) retires the finished buckets kept of the device's charts.
      update ${devices} d set last_update = greatest(d.last_update, m.newest),
        battery = case when m.battery_at >= coalesce(d.last_update, '-infinity') then m.battery else d.battery end,
        history_version = d.history_version + (m.oldest < clock_timestamp() - ${LATE})::int
      from (
        select device_seq, max(recorded_at) as newest, min(recorded_at) as oldest,
          max(recorded_at) filter (where battery is not null) as battery_at,
          (array_agg(battery order by recorded_at desc) filter (where battery is not null))[1] as battery
        from ins group by device_seq
      ) m
      where d.seq = m.device_seq
    ), by_minute as (
      ${addToRollups(sql`ins`, 'minute')}
    ), by_hour as (
      ${addToRollups(sql`ins`, 'hour')}
    )
    select ins.id::text, ins.device_seq, ins.message_id,
      extract(epoch from ins.recorded_at) * 1000 as recorded_ms,
      ins.spo2, ins.heart_rate, ins.temperature, ins.battery
    from ins`,
  storedRow,
);

/**
 * One statement for the whole batch, whatever its size: the columns travel as array parameters.
 * A (device, messageId) already stored is skipped: looked up by the (device, recorded_at) index,
 * at the same `recordedAt` or, for a reading stamped on arrival, in the window before it. This is
 * exact without a unique index because the caller holds the devices' row locks: no other writer
 * can store a reading of these devices until this transaction ends. The devices' `last_update`
 * moves to the newest stored `recordedAt` (never back), their `battery` with it; the minute and hour rollups add exactly
 * the rows stored now. Returns the rows stored now.
 */
export async function insertReadings(
  tx: Tx,
  rows: ReadingRow[],
  /** The batch's devices, locked by `lockDevices`: every row's device is one of them. */
  locked: Map<string, LockedDevice>,
): Promise<StoredReading[]> {
  if (rows.length === 0) return [];
  const idOf = new Map([...locked.values()].map((d) => [d.seq, d.id]));
  const values = Object.fromEntries(
    Object.entries(COLUMNS).map(([name, pick]) => [name, rows.map((r) => pick(r))]),
  );
  // By seq, not uuid: the insert needs no lookup of the devices (a scan of them all, in a large fleet).
  values.deviceSeqs = rows.map((r) => locked.get(r.deviceId)!.seq);
  const stored = await insertBatch(tx, values);
  return stored.map((r) => ({
    id: r.id,
    deviceId: idOf.get(r.device_seq)!,
    messageId: r.message_id,
    recordedAt: new Date(r.recorded_ms),
    spo2: r.spo2,
    heartRate: r.heart_rate,
    temperature: r.temperature,
    battery: r.battery,
  }));
}
