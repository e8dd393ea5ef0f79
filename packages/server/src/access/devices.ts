import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../db/index.ts';
import { quickRead } from '../db/pipelined-reads.ts';
import { preparedRows } from '../db/raw-rows.ts';
import { devices } from '../db/schema.ts';
import { isUuid } from '../lib/ids.ts';
import { maySee } from './audience.ts';

/**
 * "May this user see this device": asked by services (never by routes) before they read or change
 * anything of a device for a user. What they may not see is answered as not found.
 */

const deviceSeen = preparedRows(
  quickRead('can_see_device'),
  sql`select 1 as seen from ${devices} d
    where d.id = ${sql.placeholder('deviceId')}::uuid and ${maySee(sql.placeholder('userId'), sql`d.id`)}`,
  z.object({ seen: z.number() }),
);

/**
 * A user sees a device (its health data, its alerts, its share links) only while assigned to it.
 * Every read of a device asks it first: a prepared statement.
 */
export const canSeeDevice = async (tx: Tx, userId: string, deviceId: string): Promise<boolean> =>
  isUuid(deviceId) && (await deviceSeen(tx, { deviceId, userId })).length > 0;

const historyVersionSeen = preparedRows(
  quickRead('device_history_version'),
  sql`select d.history_version as version, (extract(epoch from now()) * 1000)::float8 as now
    from ${devices} d
    where d.id = ${sql.placeholder('deviceId')}::uuid and ${maySee(sql.placeholder('userId'), sql`d.id`)}`,
  z.object({ version: z.number().int(), now: z.number() }),
);

/**
 * `canSeeDevice` and, when the user may see the device, its history version (migration 0032) and
 * the database's time (epoch ms) in the same statement: undefined when they may not.
 */
export const visibleHistoryVersion = async (
  tx: Tx,
  userId: string,
  deviceId: string,
): Promise<{ version: number; now: number } | undefined> =>
  isUuid(deviceId) ? (await historyVersionSeen(tx, { deviceId, userId }))[0] : undefined;

/** The device, when the user may see it; undefined for any other (someone else's, unknown, not an id). */
export const visibleDevice = async (tx: Tx, userId: string, deviceId: string) =>
  isUuid(deviceId)
    ? (
        await tx
          .select()
          .from(devices)
          .where(and(eq(devices.id, deviceId), maySee(userId, devices.id)))
          .limit(1)
      )[0]
    : undefined;
