import type { AlertRecord } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../db/index.ts';
import { columnsOf, rawRows } from '../db/raw-rows.ts';
import { alertEvents, alerts, notificationJobs, users } from '../db/schema.ts';

/** Whom one alert is for at one step: written in the transaction that stores the alert or takes the step. */
export interface AlertNotice {
  alert: AlertRecord;
  contactIds: string[];
  /** 0: first send; n: the n-th escalation step. */
  step: number;
}

/** One message of a fanout, ready to send; `id` is also its idempotency id. */
export interface NewDelivery {
  id: string;
  /** Whom it is for; null for a care team's or the platform's webhook. */
  userId: string | null;
  target: string;
  payload: unknown;
}

export type DeliveryKind = 'push' | 'email' | 'sms' | 'webhook';
/** A message with the alert and step it belongs to, as inserted. */
export type QueuedDelivery = NewDelivery & { kind: DeliveryKind; alertId: string; step: number };

/**
 * `run_at` is due by `now`: stored by the database's clock in microseconds, a job written within
 * the millisecond `now` names is due too. (`run_at <= now` left a fanout committed in the same
 * millisecond as the look that its commit woke for the next poll, delaying the alert's first push.)
 */
export const dueBy = (now: Date) => sql`run_at < ${new Date(now.getTime() + 1).toISOString()}::timestamptz`;

const jobRow = z.object({
  id: z.string(),
  kind: z.enum(['fanout', 'fallback', 'push', 'email', 'sms', 'webhook']),
  alert_id: z.string(),
  step: z.number().int(),
  contact_ids: z.array(z.string()).nullable(),
  user_id: z.string().nullable(),
  target: z.string().nullable(),
  payload: z.unknown(),
  attempts: z.number().int(),
});
export type JobRow = z.infer<typeof jobRow>;

/**
 * Queue the notifications of alerts (one fanout row per alert and step), in the caller's
 * transaction: the alert and the promise to tell its contacts commit together or not at all.
 */
export async function enqueueNotices(tx: Tx, notices: AlertNotice[]): Promise<void> {
  const due = notices.filter((n) => n.contactIds.length > 0);
  if (due.length === 0) return;
  const col = columnsOf(due);
  await tx.execute(
    sql`insert into ${notificationJobs} (kind, alert_id, step, contact_ids, payload)
      select 'fanout', n.alert_id, n.step, array(select jsonb_array_elements_text(n.contacts))::uuid[], n.payload
      from unnest(${col((n) => n.alert._id)}::uuid[], ${col((n) => n.step)}::int[],
        ${col((n) => JSON.stringify([...new Set(n.contactIds)]))}::jsonb[],
        ${col((n) => JSON.stringify(n.alert))}::jsonb[])
        as n(alert_id, step, contacts, payload)`,
  );
}

/** Lock up to `limit` due fanout rows (others' locks are skipped), for the caller's transaction. */
export const lockDueFanouts = (tx: Tx, now: Date, limit: number) =>
  rawRows(
    tx,
    sql`select id::text, kind, alert_id::text, step, contact_ids::text[], user_id::text, target, payload, attempts
      from ${notificationJobs}
      where kind = 'fanout' and status = 'queued' and ${dueBy(now)}
      order by run_at limit ${limit}
      for update skip locked`,
    jobRow,
  );

/** Replace fanout rows by their deliveries, in the transaction that locked them. */
export async function expandFanouts(
  tx: Tx,
  fanoutIds: string[],
  deliveries: QueuedDelivery[],
): Promise<void> {
  await insertDeliveries(tx, deliveries);
  await tx.execute(sql`delete from ${notificationJobs} where id = any(${sql.param(fanoutIds)}::uuid[])`);
}

/** Queue messages, each due now. */
export async function insertDeliveries(tx: Tx, deliveries: QueuedDelivery[]): Promise<void> {
  if (deliveries.length > 0) {
    const col = <T>(pick: (d: (typeof deliveries)[number]) => T) => sql.param(deliveries.map(pick));
    await tx.execute(
      sql`insert into ${notificationJobs} (id, kind, alert_id, step, user_id, target, payload)
        select * from unnest(${col((d) => d.id)}::uuid[], ${col((d) => d.kind)}::text[],
          ${col((d) => d.alertId)}::uuid[], ${col((d) => d.step)}::int[], ${col((d) => d.userId)}::uuid[],
          ${col((d) => d.target)}::text[], ${col((d) => JSON.stringify(d.payload))}::jsonb[])`,
    );
  }
}

/**
 * Take up to `limit` due deliveries (of one channel, when `kind` is given) for `leaseMs`: each
 * counts one more attempt. Rows another worker holds are skipped; a row whose lease ran out (its
 * worker died) is due again.
 */
export const claimDeliveries = (db: Db, now: Date, leaseMs: number, limit: number, kind?: DeliveryKind) =>
  rawRows(
    db,
    sql`update ${notificationJobs} j
      set lease_until = ${now.toISOString()}::timestamptz + ${leaseMs} * interval '1 millisecond',
        attempts = j.attempts + 1
      where j.id in (
        select id from ${notificationJobs}
        where kind not in ('fanout', 'fallback') and status = 'queued' and ${dueBy(now)}
          ${kind ? sql`and kind = ${kind}` : sql``}
          and (lease_until is null or lease_until <= ${now.toISOString()}::timestamptz)
        order by run_at limit ${limit}
        for update skip locked)
      returning j.id::text, j.kind, j.alert_id::text, j.step, j.contact_ids::text[], j.user_id::text,
        j.target, j.payload, j.attempts`,
    jobRow,
  );

/** What became of one claimed delivery. */
export type Settled =
  | { job: JobRow; kind: 'sent' }
  | { job: JobRow; kind: 'retry'; at: Date; detail: string }
  | { job: JobRow; kind: 'dead'; detail: string };

/**
 * Record the outcomes of claimed deliveries in one transaction: a sent one is deleted and noted on
 * its alert's timeline, a retry waits for its time, a dead one stays (and its failure is noted).
 * A row whose attempt count moved on (its lease ran out and another worker took it) is left alone.
 */
export async function settleDeliveries(tx: Tx, settled: Settled[], now: Date): Promise<void> {
  if (settled.length === 0) return;
  const col = <T>(pick: (s: Settled) => T) => sql.param(settled.map(pick));
  await tx.execute(
    sql`with outcome as (
        select * from unnest(${col((s) => s.job.id)}::uuid[], ${col((s) => s.job.attempts)}::int[],
          ${col((s) => s.kind)}::text[], ${col((s) => (s.kind === 'retry' ? s.at.toISOString() : null))}::timestamptz[],
          ${col((s) => (s.kind === 'sent' ? null : s.detail))}::text[])
          as o(id, attempts, kind, retry_at, detail)
      ), mine as (
        select o.* from outcome o join ${notificationJobs} j on j.id = o.id and j.attempts = o.attempts
      ), gone as (
        delete from ${notificationJobs} j using mine m where j.id = m.id and m.kind = 'sent'
        returning j.id, j.alert_id, j.user_id, j.kind as channel
      ), changed as (
        update ${notificationJobs} j
        set status = case when m.kind = 'dead' then 'dead' else 'queued' end,
          run_at = coalesce(m.retry_at, j.run_at), lease_until = null, last_error = m.detail
        from mine m where j.id = m.id and m.kind <> 'sent'
        returning j.id, j.alert_id, j.user_id, j.kind as channel, m.kind as outcome, m.detail
      ), noted as (
        select alert_id, user_id, channel, true as ok, null::text as detail from gone
        union all
        select alert_id, user_id, channel, false, detail from changed where outcome = 'dead'
      )
      insert into ${alertEvents} (alert_id, at, kind, user_id, user_name, channel, ok, detail)
      select n.alert_id, ${now.toISOString()}::timestamptz, 'notified', u.id, u.username, n.channel, n.ok, n.detail
      from noted n
      join ${alerts} a on a.id = n.alert_id
      left join ${users} u on u.id = n.user_id`,
  );
}

/** Jobs still to run (fanouts and deliveries, due or waiting for a retry); fallback ladders wait for time, not work. */
export async function queuedJobs(db: Db): Promise<number> {
  const [row] = await rawRows(
    db,
    sql`select count(*)::int as n from ${notificationJobs} where status = 'queued' and kind <> 'fallback'`,
    z.object({ n: z.number().int() }),
  );
  return row?.n ?? 0;
}
