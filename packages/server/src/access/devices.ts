import { and, eq } from 'drizzle-orm';
import type { Tx } from '../db/index.ts';
import { devices } from '../db/schema.ts';
import { isUuid } from '../lib/ids.ts';
import { maySee } from './audience.ts';

/**
 * "May this user see this device": asked by services (never by routes) before they read or change
 * anything of a device for a user. What they may not see is answered as not found.
 */

/** A user sees a device (its health data, its alerts, its share links) only while assigned to it. */
export const canSeeDevice = async (tx: Tx, userId: string, deviceId: string): Promise<boolean> =>
  isUuid(deviceId) &&
  (
    await tx
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices.id, deviceId), maySee(userId, devices.id)))
      .limit(1)
  ).length === 1;

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
