import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { backupIdsOf, contactIdsOf, userIdsOf } from '../../access/audience.ts';
import type { Db, Tx } from '../../db/index.ts';
import { epochMs, rawRows } from '../../db/raw-rows.ts';
import { alertEscalations, alerts, devices } from '../../db/schema.ts';
import type { Audience, EscalationStep, EventBus } from '../../lib/events.ts';
import { enqueueNotices } from '../../notification-outbox/repository.ts';
import { presentAlert } from './presenter.ts';
import { recordEscalation } from './timeline.ts';

/** Due steps taken per run; the rest wait for the next run (a second later). */
const STEPS_PER_RUN = 200;

const dueRow = z.object({
  alert_id: z.string(),
  next_ms: epochMs,
  steps: z.number().int(),
  backup_ms: epochMs,
  backup_notified: z.boolean(),
  stops_ms: epochMs,
  repeat_every_ms: z.number().int(),
  status: z.string(),
  /** The device has primary and backup contacts: the backup step notifies someone. */
  has_backup_step: z.boolean(),
});

interface Step {
  alertId: string;
  step: number;
  /** The one-off step that brings in the backup contacts (only they are notified then). */
  backupOnly: boolean;
  includesBackup: boolean;
}

/**
 * Take the steps due by `now` under row locks, move each job on, record each step and queue its
 * notifications in the outbox, commit, then announce the steps. Another process skips the jobs this one holds (SKIP LOCKED) and so takes each step
 * once; the alert row is share-locked too, so an acknowledgement committed meanwhile is seen (or
 * waits for this run) and no step follows it. A job whose alert is acknowledged or resolved, or
 * whose time is up, is deleted.
 *
 * A step's push and e-mail are outbox rows of the same transaction: if the commit fails, none of
 * it happened and the next run takes the step again; once it commits, they are sent whatever
 * becomes of this process. The announcement (screens, the outbox's wake-up) follows the commit.
 */
export async function runDueEscalations(
  db: Db,
  events: EventBus,
  log: FastifyBaseLogger,
  now: Date,
): Promise<number> {
  const announcements = await db.transaction(async (tx) => {
    const due = await rawRows(
      tx,
      sql`select e.alert_id::text, extract(epoch from e.next_at) * 1000 as next_ms, e.steps,
          extract(epoch from e.backup_at) * 1000 as backup_ms, e.backup_notified,
          extract(epoch from e.stops_at) * 1000 as stops_ms, e.repeat_every_ms, a.status,
          cardinality(${backupIdsOf(sql`a.device_id`)}) > 0 as has_backup_step
        from ${alertEscalations} e join ${alerts} a on a.id = e.alert_id
        where e.next_at <= ${now.toISOString()}::timestamptz
          or (not e.backup_notified and e.backup_at <= ${now.toISOString()}::timestamptz)
          or a.status <> 'active'
        order by least(e.next_at, e.backup_at)
        limit ${STEPS_PER_RUN}
        for update of e skip locked
        for share of a skip locked`,
      dueRow,
    );
    const taken: Step[] = [];
    const done = (alertId: string) =>
      tx.delete(alertEscalations).where(sql`${alertEscalations.alertId} = ${alertId}::uuid`);
    for (const job of due) {
      const t = now.getTime();
      // A repeat scheduled past the end of the escalation is never sent.
      const repeatDue = job.next_ms <= t && job.next_ms <= job.stops_ms;
      const backupDue = !job.backup_notified && job.backup_ms <= t;
      if (job.status !== 'active' || (!repeatDue && !backupDue)) {
        await done(job.alert_id);
        continue;
      }
      const backupNotified = job.backup_notified || backupDue;
      // A backup step with no backup contacts notifies nobody: it is not a step (no gap in the numbers).
      const silent = backupDue && !repeatDue && !job.has_backup_step;
      const step = silent ? job.steps : job.steps + 1;
      if (!silent) {
        taken.push({
          alertId: job.alert_id,
          step,
          backupOnly: backupDue && !repeatDue,
          includesBackup: backupNotified,
        });
      }
      // On schedule; after downtime, one step now and the next a full interval later (no burst).
      const onSchedule = job.next_ms + job.repeat_every_ms;
      const nextMs = !repeatDue ? job.next_ms : onSchedule > t ? onSchedule : t + job.repeat_every_ms;
      if (nextMs > job.stops_ms && backupNotified) {
        await done(job.alert_id);
      } else {
        await tx
          .update(alertEscalations)
          .set({ steps: step, nextAt: new Date(nextMs), backupNotified })
          .where(sql`${alertEscalations.alertId} = ${job.alert_id}::uuid`);
      }
    }
    return taken.length === 0 ? [] : queueSteps(tx, taken);
  });
  let announced = 0;
  for (const [audience, step] of announcements) {
    try {
      events.emit('escalation', audience, step);
      announced += 1;
    } catch (err) {
      log.error({ err, alertId: step.alert._id }, 'escalation listener failed');
    }
  }
  return announced;
}

const stepAlertRow = z.object({
  id: z.string(),
  device_id: z.string(),
  device_name: z.string(),
  alert_type: z.string(),
  alert_title: z.string(),
  alert_message: z.string(),
  priority: z.enum(['high', 'medium', 'low']),
  recorded_ms: epochMs,
  created_ms: epochMs,
  user_ids: z.array(z.string()),
  contact_ids: z.array(z.string()),
  backup_ids: z.array(z.string()),
});

/** Record each step on its alert's timeline and queue its notifications in the outbox; returns what to announce. */
async function queueSteps(tx: Tx, steps: Step[]): Promise<Array<[Audience, EscalationStep]>> {
  const rows = await rawRows(
    tx,
    sql`select a.id::text, a.device_id::text, d.device_name, a.alert_type, a.alert_title, a.alert_message,
        a.priority, extract(epoch from a.recorded_at) * 1000 as recorded_ms,
        extract(epoch from a.created_at) * 1000 as created_ms,
        ${userIdsOf(sql`a.device_id`)} as user_ids, ${contactIdsOf(sql`a.device_id`)} as contact_ids,
        ${backupIdsOf(sql`a.device_id`)} as backup_ids
      from ${alerts} a join ${devices} d on d.id = a.device_id
      where a.id = any(${sql.param(steps.map((s) => s.alertId))}::uuid[])`,
    stepAlertRow,
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const announcements: Array<[Audience, EscalationStep]> = [];
  for (const s of steps) {
    const r = byId.get(s.alertId);
    if (!r) continue;
    const primary = r.contact_ids;
    const backup = r.backup_ids;
    if (s.backupOnly && backup.length === 0) continue;
    const contactIds = s.backupOnly ? backup : s.includesBackup ? [...primary, ...backup] : primary;
    await recordEscalation(
      tx,
      r.id,
      s.backupOnly
        ? `Step ${s.step}: not acknowledged, sent to the backup contacts`
        : `Step ${s.step}: not acknowledged, sent again${s.includesBackup && backup.length > 0 ? ' to everyone' : ''}`,
    );
    const alert = presentAlert({
      id: r.id,
      deviceId: r.device_id,
      deviceName: r.device_name,
      alertType: r.alert_type,
      alertTitle: r.alert_title,
      alertMessage: r.alert_message,
      priority: r.priority,
      status: 'active',
      acknowledgedAt: null,
      acknowledgedByName: null,
      ackNote: null,
      resolvedAt: null,
      resolvedByName: null,
      resolveNote: null,
      recordedAt: new Date(r.recorded_ms),
      createdAt: new Date(r.created_ms),
      isRead: false,
    });
    await enqueueNotices(tx, [{ alert, contactIds, step: s.step }]);
    announcements.push([
      { deviceId: r.device_id, userIds: r.user_ids, contactIds },
      { alert, step: s.step, includesBackup: s.includesBackup },
    ]);
  }
  return announcements;
}
