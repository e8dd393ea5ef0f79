import type { AlertTimelineEntry } from '@vitalwatch/shared';
import { asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/index.ts';
import { alertEvents, alerts, users } from '../../db/schema.ts';
import type { LifecycleRow, StoredAlert } from './rows.ts';

/**
 * A browser's receipt for one push message: shown on the device, or opened. Recorded once per
 * message and event (the message id is kept as its detail), and only while the alert exists.
 */
export async function recordReceipt(
  tx: Tx,
  receipt: { notificationId: string; alertId: string; userId: string; event: 'shown' | 'opened' },
): Promise<void> {
  await tx.execute(
    sql`insert into ${alertEvents} (alert_id, kind, user_id, user_name, channel, detail)
      select a.id, ${receipt.event}, u.id, u.username, 'push', ${receipt.notificationId}
      from ${alerts} a left join ${users} u on u.id = ${receipt.userId}::uuid
      where a.id = ${receipt.alertId}::uuid
        and not exists (select 1 from ${alertEvents} e where e.alert_id = a.id and e.kind = ${receipt.event}
          and e.detail = ${receipt.notificationId})`,
  );
}

/** Record an escalation step (in the transaction that takes it), at the time it is taken. */
export async function recordEscalation(tx: Tx, alertId: string, detail: string): Promise<void> {
  await tx.insert(alertEvents).values({ alertId, kind: 'escalated', detail });
}

/**
 * Everything that happened to an alert, oldest first: raised, each notification and whether it
 * was delivered, each escalation step, acknowledged, resolved.
 */
export async function alertTimeline(
  tx: Tx,
  alert: LifecycleRow & Pick<StoredAlert, 'createdAt' | 'alertTitle'>,
): Promise<AlertTimelineEntry[]> {
  const events = await tx
    .select()
    .from(alertEvents)
    .where(eq(alertEvents.alertId, alert.id))
    .orderBy(asc(alertEvents.at), asc(alertEvents.id));
  const entries: AlertTimelineEntry[] = [
    {
      id: 'raised',
      at: alert.createdAt.toISOString(),
      kind: 'raised',
      by: null,
      channel: null,
      ok: null,
      detail: `${alert.alertTitle} (${alert.priority} priority)`,
    },
    ...events.map((e) => ({
      id: `event-${e.id}`,
      at: e.at.toISOString(),
      kind: e.kind,
      by: e.userName,
      channel: e.channel,
      ok: e.ok,
      // A receipt's detail is its message id, kept to record each receipt once: no news to a reader.
      detail: e.kind === 'shown' || e.kind === 'opened' ? null : e.detail,
    })),
  ];
  if (alert.acknowledgedAt) {
    entries.push({
      id: 'acknowledged',
      at: alert.acknowledgedAt.toISOString(),
      kind: 'acknowledged',
      by: alert.acknowledgedByName,
      channel: null,
      ok: null,
      detail: alert.ackNote,
    });
  }
  if (alert.resolvedAt) {
    entries.push({
      id: 'resolved',
      at: alert.resolvedAt.toISOString(),
      kind: 'resolved',
      by: alert.resolvedByName,
      channel: null,
      ok: null,
      detail: alert.resolveNote ?? (alert.resolvedByName ? null : 'Condition over'),
    });
  }
  return entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}
