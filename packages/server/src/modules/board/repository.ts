import { BOARD_SPARK_BUCKETS, BOARD_SPARK_MINUTES } from '@vitalwatch/shared';
import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { visibleDeviceIds } from '../../access/audience.ts';
import { unreachableDevice } from '../../channel-health/working-channel.ts';
import type { Tx } from '../../db/index.ts';
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
 *
 * Their rows are taken as the driver gives them, not parsed: zod over 3,000 rows (and over the
 * 1,000-tile reply) was most of a build's JavaScript, which blocked the event loop for every other
 * request. Each query's rows are checked against its schema here (`boardRowSchemas`) by the tests,
 * on PGlite and PostgreSQL (board-rows.test.ts), with values of every kind.
 */
const driverRows = async <T extends z.ZodType>(tx: Tx, query: SQL, _row: T): Promise<z.output<T>[]> =>
  ((await tx.execute(query)) as unknown as { rows: z.output<T>[] }).rows;

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
  driverRows(
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
  /** As the driver gives a timestamptz (drizzle keeps it text): `new Date` reads it. */
  recorded_at: z.string(),
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
    : driverRows(
        tx,
        sql`select s.seq as device_seq, r.recorded_at, r.spo2, r.heart_rate, r.temperature, r.battery
          from unnest(${sql.param(seqs)}::int[]) as s(seq)
          cross join lateral (
            select h.recorded_at, h.spo2, h.heart_rate, h.temperature, h.battery from ${healthRecords} h
            where h.device_seq = s.seq order by h.recorded_at desc limit 1
          ) r`,
        latestRow,
      );

const sparkRow = z.object({
  device_seq: z.number(),
  /** Slot (0 oldest) → value, for the slots that have one: JSON, which the driver parses natively. */
  rates: z.record(z.string(), z.number()),
});
export type SparkRow = z.infer<typeof sparkRow>;

/** The dates as ISO strings, each distinct one written once (the `since` of 1,000 devices are a few slot starts). */
function isoStrings(dates: Date[]): string[] {
  const written = new Map<number, string>();
  return dates.map((d) => {
    const ms = d.getTime();
    let iso = written.get(ms);
    if (iso === undefined) {
      iso = d.toISOString();
      written.set(ms, iso);
    }
    return iso;
  });
}

/** The span of one sparkline slot (3 minutes). */
export const SPARK_SLOT_MS = (BOARD_SPARK_MINUTES * 60_000) / BOARD_SPARK_BUCKETS;

/**
 * Mean heart rate of each device per sparkline slot, from its `since` to `at`, in whole beats a
 * minute (rounded half up, as Math.round): slots are numbered 0 (oldest) to 19, the last ending at
 * `end`. One row per device with a value, its slots as one JSON object (a row per device and slot
 * was 20 times the rows to parse, and an int[] column is parsed character by character in
 * JavaScript). Grouped per device in a lateral subquery: one grouping of all 60,000 minutes of
 * 1,000 devices spilled its sort to disk (152 ms there, 72 ms so, on PostgreSQL with 1,000 devices).
 * `since` is the start of the slots not yet known (see `SparklineSlots`): most builds read only the
 * last few minutes of each device.
 */
export const sparklineSlots = (tx: Tx, devices: { seq: number; since: Date }[], end: Date, at: Date) =>
  devices.length === 0
    ? Promise.resolve([])
    : driverRows(
        tx,
        sql`select s.seq as device_seq, x.rates
          from unnest(${sql.param(devices.map((d) => d.seq))}::int[], ${sql.param(isoStrings(devices.map((d) => d.since)))}::timestamptz[]) as s(seq, since)
          cross join lateral (
            select json_object_agg(slot, rate) as rates from (
              select floor(date_part('epoch', m.bucket - ${end.toISOString()}::timestamptz) / ${SPARK_SLOT_MS / 1000})::int + ${BOARD_SPARK_BUCKETS} as slot,
                floor(sum(m.heart_rate_sum) / nullif(sum(m.heart_rate_count), 0) + 0.5)::int as rate
              from ${healthRollupsMinute} m
              where m.device_seq = s.seq and m.bucket >= s.since and m.bucket < ${at.toISOString()}::timestamptz
              group by 1
            ) slot
            where rate is not null and slot >= 0 and slot < ${BOARD_SPARK_BUCKETS}
          ) x
          where x.rates is not null`,
        sparkRow,
      );

const teamRow = z.object({ id: z.string(), name: z.string() });

/** The schemas the board's rows hold: checked by the tests, not at run time (see `driverRows`). */
export const boardRowSchemas = { deviceRow, latestRow, sparkRow, teamRow };

/** The user's teams, by name. */
export const teamsOf = (tx: Tx, userId: string) =>
  driverRows(
    tx,
    sql`select t.id::text, t.name from ${teams} t
      join ${teamUsers} tu on tu.team_id = t.id and tu.user_id = ${userId}::uuid
      order by t.name`,
    teamRow,
  );
