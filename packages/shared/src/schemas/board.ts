import { z } from 'zod';
import { VITAL_ALARM_TYPES, type VitalAlarmType } from '../rules/alarms.ts';
import { alertRecord } from './alert.ts';
import { envelope } from './common.ts';
import { healthRecord } from './health.ts';

/**
 * The care team's board: every device the user may see, at a glance. One call returns the
 * snapshot; live changes arrive as `boardUpdate` batches (at most one per device per second).
 */

export const BOARD_MESSAGES = {
  fetched: 'Board fetched successfully',
  fetchFailed: 'Failed to load the board',
} as const;

/** The sparkline spans the last hour in this many buckets (3 minutes each). */
export const BOARD_SPARK_BUCKETS = 20;
export const BOARD_SPARK_MINUTES = 60;
/** Live board changes are sent at most this often per device, in one batch per user. */
export const BOARD_COALESCE_MS = 1000;
/** Most open alerts one board lists (the oldest unresolved past this are left to the Alerts page). */
export const BOARD_ALERTS_MAX = 2000;

const level = z.object({ limit: z.number(), critical: z.number().nullable() });
/** A device's alarm limits and critical levels where they differ from the defaults; null: the defaults. */
export const boardLimits = z
  .object(
    Object.fromEntries(VITAL_ALARM_TYPES.map((t) => [t, level])) as {
      [K in VitalAlarmType]: typeof level;
    },
  )
  .nullable();
export type BoardLimits = z.infer<typeof boardLimits>;

/**
 * Mean heart rate of each bucket in whole beats a minute, oldest first; null where nothing was
 * recorded. Only heart rate: the tile draws no other line, and SpO2's hour would be a fifth of the
 * snapshot (issue 25's budget: 300 kB for 1,000 devices).
 */
export const boardSparkline = z.array(z.number().int().nullable());
export type BoardSparkline = z.infer<typeof boardSparkline>;

/** The newest reading of a tile: a health record without its device id (the tile's own). */
export const boardReading = healthRecord.omit({ device: true });

/**
 * An open alert on a tile: an alert record without what the tile already says (its device's id
 * and name) and without the long message, which the tile does not show (the Alerts page does).
 */
export const boardAlert = alertRecord.omit({ device: true, deviceName: true, alertMessage: true });
export type BoardAlert = z.infer<typeof boardAlert>;

export const boardDevice = z.object({
  _id: z.string(),
  /** The user's own name for it when they gave one, else the shared name. */
  deviceName: z.string(),
  isValid: z.boolean(),
  latest: boardReading.nullable(),
  sparkline: boardSparkline,
  limits: boardLimits,
  /** Its unresolved alerts, highest priority first, newest first within one. */
  alerts: z.array(boardAlert),
  /** Ids of the user's teams that hold it (for the team filter). */
  teamIds: z.array(z.string()),
  /**
   * Present, and true, when none of its primary contacts has a working channel (channel health):
   * nobody alerted first can be reached. Absent otherwise, to keep the snapshot small.
   */
  noWorkingChannel: z.literal(true).optional(),
});
export type BoardDevice = z.infer<typeof boardDevice>;

export const boardSnapshot = z.object({
  devices: z.array(boardDevice),
  /** The user's teams, by name. */
  teams: z.array(z.object({ _id: z.string(), name: z.string() })),
  /** When the snapshot was taken (server time): the sparkline's last bucket ends here. */
  at: z.string(),
});
export type BoardSnapshot = z.infer<typeof boardSnapshot>;
export const boardResponse = envelope(boardSnapshot);

/** One `boardUpdate` socket event: the newest record of each device that sent any since the last batch. */
export const boardUpdatePayload = z.array(healthRecord).max(10_000);
