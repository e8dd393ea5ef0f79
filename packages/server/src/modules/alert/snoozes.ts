import { type AlertRecord, isInQuietHours, type SnoozeRecord } from '@vitalwatch/shared';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
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

/**
 * Which of these users are notified (push, e-mail) of this alert now: high priority reaches
 * everyone; otherwise not those who snoozed its device's type, and low priority not those in their
 * quiet hours. Each person's choice silences only them.
 */
export async function notifiedUsers(
  tx: Tx,
  userIds: readonly string[],
  alert: Pick<AlertRecord, 'device' | 'alertType' | 'priority'>,
  now: Date,
): Promise<Set<string>> {
  if (alert.priority === 'high' || userIds.length === 0) return new Set(userIds);
  const rows = await tx
    .select({
      id: users.id,
      quietHours: users.quietHours,
      snoozed: sql<boolean>`exists (select 1 from ${alertSnoozes} s where s.user_id = ${users.id}
        and s.device_id = ${alert.device}::uuid and s.alert_type = ${alert.alertType}
        and s.until > ${now.toISOString()}::timestamptz)`,
    })
    .from(users)
    .where(inArray(users.id, [...userIds]));
  return new Set(
    rows
      .filter((r) => !r.snoozed)
      .filter((r) => alert.priority !== 'low' || !isInQuietHours(storedQuietHours(r.quietHours), now))
      .map((r) => r.id),
  );
}
