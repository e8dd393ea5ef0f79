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
const limitsObject = z.object(
  Object.fromEntries(VITAL_ALARM_TYPES.map((t) => [t, level])) as {
    [K in VitalAlarmType]: typeof level;
  },
);
/** A device's alarm limits and critical levels where they differ from the defaults; null: the defaults. */
export type BoardLimits = z.infer<typeof limitsObject> | null;

/**
 * Mean heart rate of each bucket in whole beats a minute, oldest first; null where nothing was
 * recorded. Only heart rate: the tile draws no other line, and SpO2's hour would be a fifth of the
 * snapshot (issue 25's budget: 300 kB for 1,000 devices).
 */
export const boardSparkline = z.array(z.number().int().nullable());
export type BoardSparkline = z.infer<typeof boardSparkline>;

/** The newest reading of a tile: a health record without its ids (the tile's device; the record's own is not used). */
export const boardReading = healthRecord.omit({ device: true, _id: true });

/**
 * An open alert on a tile: an alert record without what the tile already says (its device's id
 * and name) and without the long message, which the tile does not show (the Alerts page does).
 */
export const boardAlert = alertRecord.omit({ device: true, deviceName: true, alertMessage: true });
export type BoardAlert = z.infer<typeof boardAlert>;

/**
 * A tile as sent: what is at its usual value is left out (issue 25's budget: 300 kB for 1,000
 * devices), and `tileOf` puts it back. Left out: `limits` for the default alarm limits, `alerts`
 * when none is open, `teamIds` when no team of the user holds it, `isValid` when the device is
 * active.
 */
export const boardDevice = z.object({
  _id: z.string(),
  /** The user's own name for it when they gave one, else the shared name. */
  deviceName: z.string(),
  /** Sent (false) only for a device an admin switched off. */
  isValid: z.literal(false).optional(),
  latest: boardReading.nullable(),
  sparkline: boardSparkline,
  /** Its alarm limits and critical levels, when they differ from the defaults. */
  limits: limitsObject.optional(),
  /** Its unresolved alerts, highest priority first, newest first within one. */
  alerts: z.array(boardAlert).min(1).optional(),
  /** Ids of the user's teams that hold it (for the team filter). */
  teamIds: z.array(z.string()).min(1).optional(),
  /**
   * Present, and true, when none of its primary contacts has a working channel (channel health):
   * nobody alerted first can be reached.
   */
  noWorkingChannel: z.literal(true).optional(),
});
export type BoardDeviceWire = z.infer<typeof boardDevice>;

/** A tile as the screens use it: nothing left out. */
export interface BoardDevice extends Omit<BoardDeviceWire, 'isValid' | 'limits' | 'alerts' | 'teamIds'> {
  isValid: boolean;
  limits: BoardLimits;
  alerts: BoardAlert[];
  teamIds: string[];
}

/** A tile as sent, from a tile in full: what is at its usual value is left out. */
export const tileWire = ({ isValid, limits, alerts, teamIds, ...rest }: BoardDevice): BoardDeviceWire => ({
  ...rest,
  ...(isValid ? {} : { isValid: false as const }),
  ...(limits ? { limits } : {}),
  ...(alerts.length > 0 ? { alerts } : {}),
  ...(teamIds.length > 0 ? { teamIds } : {}),
});

/** A tile in full, from a tile as sent. */
export const tileOf = ({ isValid, limits, alerts, teamIds, ...rest }: BoardDeviceWire): BoardDevice => ({
  ...rest,
  isValid: isValid ?? true,
  limits: limits ?? null,
  alerts: alerts ?? [],
  teamIds: teamIds ?? [],
});

export const boardSnapshot = z.object({
  devices: z.array(boardDevice),
  /** The user's teams, by name. */
  teams: z.array(z.object({ _id: z.string(), name: z.string() })),
  /**
   * When the snapshot was taken (server time). The sparkline's buckets lie on a fixed 3-minute grid:
   * the last one is the one this falls in (it ends at the first grid line at or after it).
   */
  at: z.string(),
});
/** The snapshot as sent. */
export type BoardSnapshotWire = z.infer<typeof boardSnapshot>;
/** The snapshot as the screens use it: every tile in full (`tileOf`). */
export interface BoardSnapshot extends Omit<BoardSnapshotWire, 'devices'> {
  devices: BoardDevice[];
}
export const boardResponse = envelope(boardSnapshot);

/**
 * How young a snapshot body the server may reuse for everyone asking at once (one build, not one per
 * request). The board replays the live events it received after a snapshot's `at` onto it, so a
 * reused body never takes a carer back; see `BOARD_REPLAY_MS`.
 */
export const BOARD_SNAPSHOT_MAX_AGE_MS = 1000;
/** How long the board keeps the live events it received, to replay those newer than a snapshot's `at` onto it. */
export const BOARD_REPLAY_MS = 30_000;

/**
 * GET /api/v1/board/snapshot: `after`, the time the board's socket (re)connected: a body built
 * before it is not reused (what happened while the socket was down reached no one), a fresh one is.
 */
export const boardSnapshotQuery = z.object({ after: z.iso.datetime({ offset: true }).optional() });
export type BoardSnapshotQuery = z.infer<typeof boardSnapshotQuery>;

/** One `boardUpdate` socket event: the newest record of each device that sent any since the last batch. */
export const boardUpdatePayload = z.array(healthRecord).max(10_000);
