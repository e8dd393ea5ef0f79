import { BOARD_SPARK_BUCKETS, BOARD_SPARK_MINUTES } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { visibleDeviceIds } from '../../access/audience.ts';
import { unreachableDevice } from '../../channel-health/working-channel.ts';
import type { Tx } from '../../db/index.ts';
import { rawRows } from '../../db/raw-rows.ts';
import {
  deviceNicknames,
  devices,
  deviceUsers,
  healthRecords,
  healthRollupsMinute,
  teamDevices,
  teams,
  teamUsers,
} from '../../db/schema.ts';

/**
 * The board's reads: each one query whatever the number of devices (a device list, their newest
 * readings, their last hour in minute rollups), so the snapshot costs the same few round trips for
 * 5 devices or 1,000.
 */

const deviceRow = z.object({
  id: z.string(),
  seq: z.number(),
  name: z.string(),
  is_valid: z.boolean(),
  alarm_settings: z.unknown(),
  team_ids: z.array(z.string()),
  unreachable: z.boolean(),
});
export type BoardDeviceRow = z.infer<typeof deviceRow>;

/** Every device the user may see, with their nickname for it and the ids of their teams that hold it. */
export const listVisibleDevices = (tx: Tx, userId: string) =>
  rawRows(
    tx,
    sql`select d.id::text, d.seq, coalesce(du.nickname, dn.nickname, d.device_name) as name, d.is_valid, d.alarm_settings,
        array(select td.team_id::text from ${teamDevices} td
          join ${teamUsers} tu on tu.team_id = td.team_id and tu.user_id = ${userId}::uuid
          where td.device_id = d.id order by td.team_id) as team_ids,
        ${unreachableDevice(sql`d.id`)} as unreachable
      from ${devices} d
      left join ${deviceUsers} du on du.device_id = d.id and du.user_id = ${userId}::uuid
      left join ${deviceNicknames} dn on dn.device_id = d.id and dn.user_id = ${userId}::uuid
      where d.id in ${visibleDeviceIds(userId)}
      order by d.id`,
    deviceRow,
  );

const latestRow = z.object({
  device_seq: z.number(),
  id: z.union([z.string(), z.bigint(), z.number()]),
  recorded_at: z.coerce.date(),
  spo2: z.number().nullable(),
  heart_rate: z.number().nullable(),
  temperature: z.number().nullable(),
  battery: z.number().nullable(),
});
export type LatestRow = z.infer<typeof latestRow>;

/** The newest reading of each device (by device time), one index probe per device. */
export const newestReadings = (tx: Tx, seqs: number[]) =>
  seqs.length === 0
    ? Promise.resolve([])
    : rawRows(
        tx,
        sql`select s.seq as device_seq, r.id::text as id, r.recorded_at, r.spo2, r.heart_rate, r.temperature, r.battery
          from unnest(${sql.param(seqs)}::int[]) as s(seq)
          cross join lateral (
            select h.id, h.recorded_at, h.spo2, h.heart_rate, h.temperature, h.battery from ${healthRecords} h
            where h.device_seq = s.seq order by h.recorded_at desc limit 1
          ) r`,
        latestRow,
      );

const sparkRow = z.object({
  device_seq: z.number(),
  slot: z.number(),
  heart_rate: z.number().nullable(),
});
export type SparkRow = z.infer<typeof sparkRow>;

const SLOT_SECONDS = (BOARD_SPARK_MINUTES * 60) / BOARD_SPARK_BUCKETS;

/** Mean heart rate of each device per sparkline slot (0 oldest) over the hour before `at`. */
export const lastHourSlots = (tx: Tx, seqs: number[], at: Date) =>
  seqs.length === 0
    ? Promise.resolve([])
    : rawRows(
        tx,
        sql`select m.device_seq,
            floor(extract(epoch from (m.bucket - ${at.toISOString()}::timestamptz)) / ${SLOT_SECONDS})::int + ${BOARD_SPARK_BUCKETS} as slot,
            (sum(m.heart_rate_sum) / nullif(sum(m.heart_rate_count), 0))::float8 as heart_rate
          from unnest(${sql.param(seqs)}::int[]) as s(seq)
          join ${healthRollupsMinute} m on m.device_seq = s.seq
          -- A join, not "= any(array)": a bound array is searched linearly for every row.
          where m.bucket >= ${at.toISOString()}::timestamptz - interval '${sql.raw(String(BOARD_SPARK_MINUTES))} minutes'
            and m.bucket < ${at.toISOString()}::timestamptz
          group by 1, 2`,
        sparkRow,
      );

/** The user's teams, by name. */
export const teamsOf = (tx: Tx, userId: string) =>
  rawRows(
    tx,
    sql`select t.id::text, t.name from ${teams} t
      join ${teamUsers} tu on tu.team_id = t.id and tu.user_id = ${userId}::uuid
      order by t.name`,
    z.object({ id: z.string(), name: z.string() }),
  );
