import { type AlertRecord, isInQuietHours, type SnoozeRecord } from '@vitalwatch/shared';
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import { maySee } from '../../access/audience.ts';
import type { Tx } from '../../db/index.ts';
import { alertSnoozes, devices, users } from '../../db/schema.ts';
import { storedQuietHours } from '../user/service.ts';

const snoozeColumns = {
  device: alertSnoozes.deviceId,
  deviceName: devices.deviceName,
  alertType: alertSnoozes.alertType,
  until: alertSnoozes.until,
};
const present = (s: {
  device: string;
  deviceName: string;
  alertType: string;
  until: Date;
}): SnoozeRecord => ({
  ...s,
  until: s.until.toISOString(),
});

/** Snooze (or re-snooze) one device's alert type for one user until `until`. */
export async function snooze(tx: Tx, userId: string, deviceId: string, alertType: string, until: Date) {
  await tx
    .insert(alertSnoozes)
    .values({ userId, deviceId, alertType, until })
    .onConflictDoUpdate({
      target: [alertSnoozes.userId, alertSnoozes.deviceId, alertSnoozes.alertType],
      set: { until },
    });
  const [row] = await tx
    .select(snoozeColumns)
    .from(alertSnoozes)
    .innerJoin(devices, eq(devices.id, alertSnoozes.deviceId))
    .where(
      and(
        eq(alertSnoozes.userId, userId),
        eq(alertSnoozes.deviceId, deviceId),
        eq(alertSnoozes.alertType, alertType),
      ),
    );
  return present(row!);
}

export async function unsnooze(tx: Tx, userId: string, deviceId: string, alertType: string): Promise<void> {
  await tx
    .delete(alertSnoozes)
    .where(
      and(
        eq(alertSnoozes.userId, userId),
        eq(alertSnoozes.deviceId, deviceId),
        eq(alertSnoozes.alertType, alertType),
      ),
    );
}

/** The user's snoozes still running at `now`, of devices still assigned to them, soonest to end first. */
export const activeSnoozes = async (tx: Tx, userId: string, now: Date): Promise<SnoozeRecord[]> =>
  (
    await tx
      .select(snoozeColumns)
      .from(alertSnoozes)
      .innerJoin(devices, eq(devices.id, alertSnoozes.deviceId))
      .where(
        and(
          eq(alertSnoozes.userId, userId),
          gt(alertSnoozes.until, now),
          maySee(userId, alertSnoozes.deviceId),
        ),
      )
      .orderBy(asc(alertSnoozes.until))
  ).map(present);

type Notice = { userIds: readonly string[]; alert: Pick<AlertRecord, 'device' | 'alertType' | 'priority'> };

/**
 * Which of these users are notified (push, e-mail) of each alert now: high priority reaches
 * everyone; otherwise not those who snoozed its device's type, and low priority not those in their
 * quiet hours. Each person's choice silences only them. Two queries for a whole batch of alerts.
 */
export async function notifiedUsersOf(tx: Tx, notices: readonly Notice[], now: Date): Promise<Set<string>[]> {
  const asked = [...new Set(notices.filter((n) => n.alert.priority !== 'high').flatMap((n) => n.userIds))];
  if (asked.length === 0) return notices.map((n) => new Set(n.userIds));
  const people = await tx
    .select({ id: users.id, quietHours: users.quietHours })
    .from(users)
    .where(inArray(users.id, asked));
  const snoozed = await tx
    .select({
      userId: alertSnoozes.userId,
      deviceId: alertSnoozes.deviceId,
      alertType: alertSnoozes.alertType,
    })
    .from(alertSnoozes)
    .where(and(inArray(alertSnoozes.userId, asked), gt(alertSnoozes.until, now)));
  const quiet = new Set(
    people.filter((p) => isInQuietHours(storedQuietHours(p.quietHours), now)).map((p) => p.id),
  );
  const known = new Set(people.map((p) => p.id));
  const snoozeKey = (userId: string, deviceId: string, alertType: string) =>
    `${userId} ${deviceId} ${alertType}`;
  const snoozes = new Set(snoozed.map((z) => snoozeKey(z.userId, z.deviceId, z.alertType)));
  return notices.map(({ userIds, alert }) =>
    alert.priority === 'high'
      ? new Set(userIds)
      : new Set(
          userIds.filter(
            (id) =>
              known.has(id) &&
              !snoozes.has(snoozeKey(id, alert.device, alert.alertType)) &&
              (alert.priority !== 'low' || !quiet.has(id)),
          ),
        ),
  );
}
