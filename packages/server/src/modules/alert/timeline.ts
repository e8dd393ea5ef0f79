import type { AlertTimelineEntry } from '@vitalwatch/shared';
import { asc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/index.ts';
import { alertEvents } from '../../db/schema.ts';
import type { LifecycleRow, StoredAlert } from './rows.ts';

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
      detail: e.detail,
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
