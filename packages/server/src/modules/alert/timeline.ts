import type { AlertTimelineEntry } from '@vitalwatch/shared';
import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/index.ts';
import { alertEvents, alerts, users } from '../../db/schema.ts';
import type { LifecycleRow, StoredAlert } from './rows.ts';

export interface NotificationOutcome {
  alertId: string;
  userId: string;
  channel: 'push' | 'email';
  ok: boolean;
  /** Why it failed. */
  detail?: string;
  /** When the outcome was known. */
  at: Date;
}

/** How often buffered notification outcomes are written, and how many may wait. */
const FLUSH_MS = 250;
const MAX_WAITING = 10_000;

/**
 * Notification outcomes for the alerts' timelines, written in one multi-row insert every 250 ms
 * rather than one statement per push or mail, off the delivery path. Bounded: past 10,000 waiting
 * (the database is away) new outcomes are dropped and counted in the log; a write that fails is
 * logged. An alert that is gone (deleted with its device meanwhile) records nothing.
 */
export class NotificationLog {
  private waiting: NotificationOutcome[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dropped = 0;
  /** Deliveries by channel and outcome since start, recorded or not (for /metrics). */
  readonly totals = { push: { ok: 0, failed: 0 }, email: { ok: 0, failed: 0 } };

  private readonly db: Db;
  private readonly log: FastifyBaseLogger;

  constructor(db: Db, log: FastifyBaseLogger) {
    this.db = db;
    this.log = log;
  }

  /** `outcome` as of now (the time it is recorded with). */
  record(outcome: Omit<NotificationOutcome, 'at'>): void {
    this.totals[outcome.channel][outcome.ok ? 'ok' : 'failed'] += 1;
    if (this.waiting.length >= MAX_WAITING) {
      this.dropped += 1;
      if (this.dropped === 1) this.log.warn('notification outcomes not recorded: too many waiting');
      return;
    }
    this.waiting.push({ ...outcome, at: new Date() });
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Write what is waiting (and wait for writes in progress). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length > 0) {
      this.writing = this.writing.then(() =>
        insertOutcomes(this.db, batch).catch((err: unknown) =>
          this.log.warn({ err, outcomes: batch.length }, 'notification outcomes not recorded'),
        ),
      );
    }
    return this.writing;
  }
}

async function insertOutcomes(tx: Tx, batch: NotificationOutcome[]): Promise<void> {
  const col = <T>(pick: (o: NotificationOutcome) => T) => sql.param(batch.map(pick));
  await tx.execute(
    sql`insert into ${alertEvents} (alert_id, at, kind, user_id, user_name, channel, ok, detail)
      select o.alert_id, o.at, 'notified', u.id, u.username, o.channel, o.ok, o.detail
      from unnest(${col((o) => o.alertId)}::uuid[], ${col((o) => o.at.toISOString())}::timestamptz[],
        ${col((o) => o.userId)}::uuid[], ${col((o) => o.channel)}::text[], ${col((o) => o.ok)}::boolean[],
        ${col((o) => o.detail ?? null)}::text[])
        as o(alert_id, at, user_id, channel, ok, detail)
      join ${alerts} a on a.id = o.alert_id
      left join ${users} u on u.id = o.user_id`,
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
