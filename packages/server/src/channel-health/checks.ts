import { randomUUID } from 'node:crypto';
import { type AlertRecord, CHANNEL_HEALTH, notReceivingNotice, notReceivingPush } from '@vitalwatch/shared';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db, Tx } from '../db/index.ts';
import { rawRows } from '../db/raw-rows.ts';
import { pushSubscriptions, users, webhooks } from '../db/schema.ts';
import { escapeHtml } from '../mail/alert-mail.ts';
import { NO_ALERT_ID } from '../notification-outbox/no-alert.ts';
import { insertDeliveries, type QueuedDelivery } from '../notification-outbox/repository.ts';
import type { PushService } from '../push-delivery/push-service.ts';
import type { WebhookChannel } from '../webhooks/webhook-channel.ts';

export interface ChannelCheckOptions {
  /** How often this process looks for browsers due a check (0: never by itself; tests call `sweep`). */
  sweepMs: number;
  /** Browsers taken per look. */
  batchSize: number;
}

const DEFAULTS: ChannelCheckOptions = { sweepMs: 60_000, batchSize: 200 };
const HOUR_MS = 3_600_000;

const dueRow = z.object({
  id: z.string(),
  user_id: z.string(),
  endpoint: z.string(),
  p256dh: z.string(),
  auth: z.string(),
  user_agent: z.string().nullable(),
  unanswered_checks: z.number().int(),
  not_receiving: z.boolean(),
  email: z.string().nullable(),
  full_name: z.string(),
});
type DueRow = z.infer<typeof dueRow>;

/**
 * The daily check of browsers that have shown nothing for a day (channel health). Each look locks
 * the due subscriptions (SKIP LOCKED) and, in that transaction, queues their check push in the
 * notification outbox and moves their `last_check_at` on: however many processes look at once,
 * a browser gets one check a day, sent once. A browser whose last `UNANSWERED_CHECKS_LIMIT` checks
 * brought no receipt is marked not receiving, and its person is told once, by e-mail (a verified
 * address) and their own webhooks, in the same transaction.
 */
export class ChannelChecks {
  private readonly options: ChannelCheckOptions;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  private readonly db: Db;
  private readonly push: PushService;
  private readonly webhooks: WebhookChannel;
  /** Absolute URL of Profile, the link in each notice. */
  private readonly profileUrl: string;
  private readonly log: FastifyBaseLogger;

  constructor(
    db: Db,
    push: PushService,
    webhooks: WebhookChannel,
    profileUrl: string,
    log: FastifyBaseLogger,
    options: Partial<ChannelCheckOptions> = {},
  ) {
    this.db = db;
    this.push = push;
    this.webhooks = webhooks;
    this.profileUrl = profileUrl;
    this.log = log;
    this.options = { ...DEFAULTS, ...options };
  }

  /** Look on a timer; the outbox sends what a look queues at its next poll. */
  start(): void {
    if (this.options.sweepMs <= 0 || !this.push.configured()) return;
    this.timer = setInterval(() => {
      this.running = this.sweep().catch((err: unknown) => this.log.error({ err }, 'channel checks failed'));
    }, this.options.sweepMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Queue the checks due at `now` (and mark browsers not receiving); resolves to the browsers handled. */
  async sweep(now: Date = new Date()): Promise<number> {
    if (!this.push.configured()) return 0;
    return this.db.transaction(async (tx) => {
      const due = await lockDue(tx, now, this.options.batchSize);
      if (due.length === 0) return 0;
      const queued: QueuedDelivery[] = [];
      const failing = due.filter(
        (s) => !s.not_receiving && s.unanswered_checks >= CHANNEL_HEALTH.UNANSWERED_CHECKS_LIMIT,
      );
      for (const s of failing) queued.push(...(await this.notice(tx, s, now)));
      for (const s of due) {
        const check = await this.push.healthDelivery({
          id: s.id,
          userId: s.user_id,
          endpoint: s.endpoint,
          p256dh: s.p256dh,
          auth: s.auth,
        });
        queued.push({ ...check, kind: 'push', alertId: NO_ALERT_ID, step: 0 });
      }
      await insertDeliveries(tx, queued);
      await tx.execute(
        sql`update ${pushSubscriptions} set last_check_at = ${now.toISOString()}::timestamptz,
            unanswered_checks = unanswered_checks + 1,
            not_receiving_since = case when id = any(${sql.param(failing.map((s) => s.id))}::uuid[])
              then ${now.toISOString()}::timestamptz else not_receiving_since end
          where id = any(${sql.param(due.map((s) => s.id))}::uuid[])`,
      );
      if (failing.length > 0) {
        this.log.info({ subscriptions: failing.map((s) => s.id) }, 'browsers marked not receiving');
      }
      return due.length;
    });
  }

  /**
   * The person's other channels, told that this browser stopped receiving: their other browsers
   * that still receive, their e-mail (if verified) and their own webhooks.
   */
  private async notice(tx: Tx, s: DueRow, now: Date): Promise<QueuedDelivery[]> {
    const browser = s.user_agent ? `Your browser (${s.user_agent.slice(0, 80)})` : 'One of your browsers';
    const { title, message } = notReceivingNotice(browser);
    const out: QueuedDelivery[] = [];
    const base = { alertId: NO_ALERT_ID, step: 0, userId: s.user_id };
    if (s.email) {
      const id = randomUUID();
      out.push({
        ...base,
        id,
        kind: 'email',
        target: s.email,
        payload: {
          to: s.email,
          subject: title,
          text: `Hello ${s.full_name},\n\n${message}\n\n${this.profileUrl}\n`,
          html: `<p>Hello ${escapeHtml(s.full_name)},</p><p>${escapeHtml(message)}</p><p><a href="${escapeHtml(this.profileUrl)}">Open Profile</a></p>`,
          messageId: `<${id}@vitalwatch.notification>`,
        },
      });
    }
    const others = await tx
      .select()
      .from(pushSubscriptions)
      .where(
        sql`${pushSubscriptions.userId} = ${s.user_id}::uuid and ${pushSubscriptions.id} <> ${s.id}::uuid
          and ${pushSubscriptions.notReceivingSince} is null`,
      );
    for (const other of others) {
      const push = await this.push.healthDelivery(other, notReceivingPush(browser));
      out.push({ ...push, kind: 'push', alertId: NO_ALERT_ID, step: 0 });
    }
    const own = await tx
      .select()
      .from(webhooks)
      .where(sql`${webhooks.scope} = 'user' and ${webhooks.userId} = ${s.user_id}::uuid`);
    const notice: AlertRecord = {
      _id: NO_ALERT_ID,
      device: NO_ALERT_ID,
      priority: 'medium',
      status: 'active',
      acknowledged: null,
      resolved: null,
      deviceName: 'VitalWatch',
      alertType: 'CHANNEL_NOT_RECEIVING',
      alertTitle: title,
      alertMessage: message,
      createdAt: now.toISOString(),
      receivedAt: now.toISOString(),
      isRead: false,
    };
    for (const hook of own) {
      const id = randomUUID();
      const payload = { ...this.webhooks.message(hook, id, notice, 0), alertId: null };
      out.push({ ...base, id, kind: 'webhook', target: hook.id, payload });
    }
    return out;
  }
}

/** Lock the browsers due a check at `now`: checks on, no receipt for a day, no check for a day. */
const lockDue = (tx: Tx, now: Date, limit: number) =>
  rawRows(
    tx,
    sql`select s.id::text, s.user_id::text, s.endpoint, s.p256dh, s.auth, s.user_agent, s.unanswered_checks,
        s.not_receiving_since is not null as not_receiving,
        case when u.email_verified_at is not null then u.email end as email, u.full_name
      from ${pushSubscriptions} s join ${users} u on u.id = s.user_id
      where u.channel_checks
        and coalesce(s.last_receipt_at, s.created_at)
          <= ${now.toISOString()}::timestamptz - ${CHANNEL_HEALTH.STALE_AFTER_HOURS * HOUR_MS} * interval '1 millisecond'
        and (s.last_check_at is null or s.last_check_at
          <= ${now.toISOString()}::timestamptz - ${CHANNEL_HEALTH.CHECK_EVERY_HOURS * HOUR_MS} * interval '1 millisecond')
      order by coalesce(s.last_check_at, s.created_at) limit ${limit}
      for update of s skip locked`,
    dueRow,
  );
