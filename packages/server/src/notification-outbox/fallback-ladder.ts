import { type AlertRecord, alertRecord, effectiveAlarmSettings } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../db/index.ts';
import { columnsOf, rawRows } from '../db/raw-rows.ts';
import { alertEvents, alerts, devices, notificationJobs, users } from '../db/schema.ts';
import { type DeliveryKind, dueBy, type NewDelivery, type QueuedDelivery } from './repository.ts';

/**
 * The fallback ladder of a high-priority alert: after the push, each primary contact is tried on
 * these channels in turn, the next one each `fallbackAfterSeconds` (a device's alarm setting,
 * 60 s by default) until a browser of theirs reports the push shown or opened, or the alert is
 * acknowledged. SMS first (a phone with no data still gets it), then e-mail, then webhooks.
 */
export const LADDER: readonly DeliveryKind[] = ['sms', 'email', 'webhook'];

/** A ladder row's payload: the alert, the wait between rungs, and the channels already tried. */
const ladderPayload = z.object({
  alert: alertRecord,
  waitMs: z.number().int().positive(),
  tried: z.array(z.string()),
});

/**
 * The channels of the ladder as the outbox has them: who gets what on one channel, for each of
 * these people and alerts (in their order; undefined where the channel has nothing for them).
 */
export type LadderChannel = (
  tx: Tx,
  kind: DeliveryKind,
  asked: readonly { alert: AlertRecord; userId: string }[],
) => Promise<(NewDelivery[] | undefined)[]>;

/**
 * Start the ladder of each primary contact of high-priority alerts sent for the first time: one
 * `fallback` row per alert and person, due one wait after now. In the fanout's transaction.
 */
export async function startLadders(
  tx: Tx,
  fanouts: Array<{ alert: AlertRecord; contactIds: string[]; step: number }>,
  now: Date,
): Promise<void> {
  const first = fanouts.filter((f) => f.step === 0 && f.alert.priority === 'high' && f.contactIds.length);
  if (first.length === 0) return;
  const settings = await rawRows(
    tx,
    sql`select id::text, alarm_settings from ${devices}
      where id = any(${sql.param([...new Set(first.map((f) => f.alert.device))])}::uuid[])`,
    z.object({ id: z.string(), alarm_settings: z.unknown() }),
  );
  const waitOf = new Map(
    settings.map((d) => [d.id, effectiveAlarmSettings(d.alarm_settings).escalation.fallbackAfterSeconds]),
  );
  const rows = first.flatMap((f) => {
    const waitMs = (waitOf.get(f.alert.device) ?? 60) * 1000;
    const payload = JSON.stringify({ alert: f.alert, waitMs, tried: [] });
    return [...new Set(f.contactIds)].map((userId) => ({ alertId: f.alert._id, userId, waitMs, payload }));
  });
  const col = columnsOf(rows);
  await tx.execute(
    sql`insert into ${notificationJobs} (kind, alert_id, step, user_id, payload, run_at)
      select 'fallback', r.alert_id, 0, r.user_id, r.payload,
        ${now.toISOString()}::timestamptz + r.wait_ms * interval '1 millisecond'
      from unnest(${col((r) => r.alertId)}::uuid[], ${col((r) => r.userId)}::uuid[],
        ${col((r) => r.payload)}::jsonb[], ${col((r) => r.waitMs)}::int[]) as r(alert_id, user_id, payload, wait_ms)`,
  );
}

/** The channel a climbing ladder took, and its messages. */
type Taken = { kind: DeliveryKind; deliveries: NewDelivery[] };

const dueRung = z.object({
  id: z.string(),
  alert_id: z.string(),
  user_id: z.string(),
  payload: z.unknown(),
  /** The alert is still active and this person has reported no push of it shown or opened. */
  unanswered: z.boolean(),
  /** Channels this person already got (or has queued) for this alert. */
  used: z.array(z.string()),
});

/**
 * Climb one rung of each due ladder, in one transaction with rows locked (SKIP LOCKED: each rung is
 * taken by one process): a ladder whose person answered, or whose alert is no longer active, ends;
 * otherwise the person's next channel that reaches them (and that they did not already get) is
 * queued, noted on the timeline, and the ladder waits for the next rung. Resolves to the rungs
 * handled and the messages to insert (in the same transaction).
 */
export async function climbLadders(
  tx: Tx,
  now: Date,
  limit: number,
  channel: LadderChannel,
): Promise<{ rungs: number; queued: QueuedDelivery[] }> {
  const due = await rawRows(
    tx,
    sql`select j.id::text, j.alert_id::text, j.user_id::text, j.payload,
        coalesce(a.status = 'active', false) and not exists (select 1 from ${alertEvents} e
          where e.alert_id = j.alert_id and e.user_id = j.user_id and e.kind in ('shown', 'opened')) as unanswered,
        array(select distinct channel from (
          select e.channel from ${alertEvents} e
            where e.alert_id = j.alert_id and e.user_id = j.user_id and e.kind = 'notified' and e.ok
          union all
          select q.kind from ${notificationJobs} q
            where q.alert_id = j.alert_id and q.user_id = j.user_id and q.kind <> 'fallback') c
          where channel is not null) as used
      from ${notificationJobs} j left join ${alerts} a on a.id = j.alert_id
      where j.kind = 'fallback' and j.status = 'queued' and ${dueBy(now)}
      order by j.run_at limit ${limit}
      for update of j skip locked`,
    dueRung,
  );
  const ended = due.filter((r) => !r.unanswered).map((r) => r.id);
  const climbing = due
    .filter((r) => r.unanswered)
    .map((rung) => {
      const ladder = ladderPayload.parse(rung.payload);
      return { rung, ladder, tried: [...ladder.tried], taken: undefined as Taken | undefined };
    });
  // Rung by rung, channel by channel, each channel asked once for every ladder that reaches it:
  // an alarm storm's thousands of rungs cost a few statements a batch, not a few a rung.
  for (const kind of LADDER) {
    const asking = climbing.filter((c) => !c.taken && !c.tried.includes(kind));
    for (const c of asking) c.tried.push(kind);
    const wanting = asking.filter((c) => !c.rung.used.includes(kind));
    if (wanting.length === 0) continue;
    const made = await channel(
      tx,
      kind,
      wanting.map((c) => ({ alert: c.ladder.alert, userId: c.rung.user_id })),
    );
    wanting.forEach((c, i) => {
      const deliveries = made[i];
      if (deliveries && deliveries.length > 0) c.taken = { kind, deliveries };
    });
  }
  const taken = climbing.flatMap((c) => (c.taken ? [{ ...c, taken: c.taken }] : []));
  const queued: QueuedDelivery[] = taken.flatMap(({ rung, taken: { kind, deliveries } }) =>
    deliveries.map((d) => ({ ...d, kind, alertId: rung.alert_id, step: 0 })),
  );
  if (taken.length > 0) {
    const col = columnsOf(taken);
    await tx.execute(
      sql`insert into ${alertEvents} (alert_id, kind, user_id, user_name, channel, detail)
        select a.id, 'fallback', u.id, u.username, t.channel, t.detail
        from unnest(${col((t) => t.rung.alert_id)}::uuid[], ${col((t) => t.rung.user_id)}::uuid[],
          ${col((t) => t.taken.kind)}::text[], ${col((t) => `no receipt within ${t.ladder.waitMs / 1000} s`)}::text[])
          with ordinality as t(alert_id, user_id, channel, detail, n)
        join ${alerts} a on a.id = t.alert_id
        left join ${users} u on u.id = t.user_id
        order by t.n`,
    );
  }
  const waiting = climbing.filter((c) => c.taken && !LADDER.every((k) => c.tried.includes(k)));
  ended.push(...climbing.filter((c) => !waiting.includes(c)).map((c) => c.rung.id));
  if (waiting.length > 0) {
    const col = columnsOf(waiting);
    await tx.execute(
      sql`update ${notificationJobs} j
        set run_at = ${now.toISOString()}::timestamptz + w.wait_ms * interval '1 millisecond', payload = w.payload
        from unnest(${col((c) => c.rung.id)}::uuid[], ${col((c) => c.ladder.waitMs)}::int[],
          ${col((c) => JSON.stringify({ ...c.ladder, tried: c.tried }))}::jsonb[]) as w(id, wait_ms, payload)
        where j.id = w.id`,
    );
  }
  if (ended.length > 0) {
    await tx.execute(sql`delete from ${notificationJobs} where id = any(${sql.param(ended)}::uuid[])`);
  }
  return { rungs: due.length, queued };
}
