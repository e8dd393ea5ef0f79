import { type AlertRecord, isInQuietHours, type SnoozeRecord } from '@vitalwatch/shared';
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/index.ts';
import { alertSnoozes, users } from '../../db/schema.ts';
import { storedQuietHours } from '../user/presenter.ts';

const present = (s: typeof alertSnoozes.$inferSelect): SnoozeRecord => ({
  device: s.deviceId,
  alertType: s.alertType,
  until: s.until.toISOString(),
});

/** Snooze (or re-snooze) one device's alert type for one user until `until`. */
export async function snooze(tx: Tx, userId: string, deviceId: string, alertType: string, until: Date) {
  const [row] = await tx
    .insert(alertSnoozes)
    .values({ userId, deviceId, alertType, until })
    .onConflictDoUpdate({
      target: [alertSnoozes.userId, alertSnoozes.deviceId, alertSnoozes.alertType],
      set: { until },
    })
    .returning();
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

/** The user's snoozes still running at `now`. */
export const activeSnoozes = async (tx: Tx, userId: string, now: Date): Promise<SnoozeRecord[]> =>
  (
    await tx
      .select()
      .from(alertSnoozes)
      .where(and(eq(alertSnoozes.userId, userId), gt(alertSnoozes.until, now)))
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
