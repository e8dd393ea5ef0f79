import { and, eq, exists, inArray, isNotNull, notExists } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db, Tx } from '../db/index.ts';
import { pushSubscriptions, smsNumbers, smsOptOuts } from '../db/schema.ts';
import { groupBy } from '../lib/group-by.ts';
import type { FanoutItem, OutboxChannel, SendResult } from '../notification-outbox/outbox.ts';
import type { NewDelivery } from '../notification-outbox/repository.ts';
import { backoffMs } from '../push-delivery/retry.ts';
import { alertSms } from './text.ts';
import { type SmsOutcome, type SmsSender, TWILIO_UNSUBSCRIBED } from './twilio.ts';

export interface SmsChannelOptions {
  /** Tries per message, the first included: 5xx, 429 and time-outs are tried again, other answers not. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

const DEFAULTS: SmsChannelOptions = { maxAttempts: 5, baseDelayMs: 2_000, maxDelayMs: 60_000 };

/** One alert SMS as the outbox keeps it: the text is fixed when queued. */
const smsJob = z.object({ phone: z.string(), body: z.string() });

/**
 * The SMS channel of the notification outbox, for high-priority alerts only (an SMS costs money
 * and interrupts; lower priorities stay on push and e-mail). Who gets one, to a verified number
 * that has not replied STOP:
 * - when the alert is raised (step 0): the contacts push cannot reach (no browser subscribed, or
 *   push not set up on this server): waiting for a receipt that cannot come would only delay them;
 * - the others through the fallback ladder (fallback-ladder.ts), whose first rung is SMS: only if
 *   none of their browsers reports the push shown within `fallbackAfterSeconds`, so a person who
 *   saw the push is not paid an SMS too; a person who already had the SMS is skipped there;
 * - at each escalation step (the alert went unanswered): every contact of the step.
 */
export class SmsChannel implements OutboxChannel {
  readonly kind = 'sms' as const;
  readonly timeoutMs: number;
  private readonly options: SmsChannelOptions;

  private readonly db: Db;
  private readonly sender: SmsSender;
  /** Absolute URL of the alerts page, the link the alert e-mails carry. */
  private readonly link: string;
  /** Whether push can reach anyone on this server. */
  private readonly pushConfigured: boolean;
  private readonly log: FastifyBaseLogger;

  constructor(
    setup: {
      db: Db;
      sender: SmsSender;
      /** The sender's request time-out: a send is given a second more. */
      senderTimeoutMs: number;
      link: string;
      pushConfigured: boolean;
      log: FastifyBaseLogger;
    },
    options: Partial<SmsChannelOptions> = {},
  ) {
    this.db = setup.db;
    this.sender = setup.sender;
    this.link = setup.link;
    this.pushConfigured = setup.pushConfigured;
    this.log = setup.log;
    this.options = { ...DEFAULTS, ...options };
    this.timeoutMs = setup.senderTimeoutMs + 1000;
  }

  /**
   * One text per verified, not opted-out number of each notified contact of a high-priority alert.
   * A first notice goes only to those with no browser for push; escalation steps and a person's
   * fallback rung text whoever has a number.
   */
  async deliveries(tx: Tx, items: readonly FanoutItem[]): Promise<NewDelivery[][]> {
    const wanted = items.filter((i) => i.alert.priority === 'high');
    const users = [...new Set(wanted.flatMap((i) => [...i.notified]))];
    if (users.length === 0) return items.map(() => []);
    const numbers = await tx
      .select({
        userId: smsNumbers.userId,
        phone: smsNumbers.phone,
        hasPush: exists(
          tx.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, smsNumbers.userId)),
        ),
      })
      .from(smsNumbers)
      .where(
        and(
          inArray(smsNumbers.userId, users),
          isNotNull(smsNumbers.phone),
          isNotNull(smsNumbers.verifiedAt),
          notExists(tx.select().from(smsOptOuts).where(eq(smsOptOuts.phone, smsNumbers.phone))),
        ),
      );
    const byUser = groupBy(numbers, (n) => n.userId);
    return items.map(({ alert, notified, step, fallback }) => {
      if (alert.priority !== 'high') return [];
      const pushFirst = step === 0 && !fallback && this.pushConfigured;
      const body = alertSms(alert, this.link, step > 0);
      return [...notified].flatMap((userId) =>
        (byUser.get(userId) ?? []).flatMap(({ phone, hasPush }) =>
          phone && !(pushFirst && hasPush)
            ? [
                {
                  id: crypto.randomUUID(),
                  userId,
                  target: phone,
                  payload: { phone, body } satisfies z.infer<typeof smsJob>,
                },
              ]
            : [],
        ),
      );
    });
  }

  async send(job: { payload: unknown; attempt: number }): Promise<SendResult> {
    const message = smsJob.parse(job.payload);
    if (await this.optedOut(message.phone)) return { ok: false, detail: 'the number replied STOP' };
    if (!(await this.stillVerified(message.phone))) return { ok: false, detail: 'the number was removed' };
    const outcome = await this.sender.send(message.phone, message.body);
    if (outcome.accepted) return { ok: true };
    if (outcome.code === TWILIO_UNSUBSCRIBED) await this.optOut(message.phone);
    if (retryable(outcome) && job.attempt < this.options.maxAttempts) {
      return {
        ok: false,
        detail: outcome.detail,
        retryInMs: backoffMs(job.attempt, this.options.baseDelayMs, this.options.maxDelayMs),
      };
    }
    this.log.warn({ attempt: job.attempt, detail: outcome.detail }, 'alert SMS not sent');
    return { ok: false, detail: outcome.detail };
  }

  /** Send one text now (a code, a test); a 21610 answer marks the number opted out. */
  async sendNow(phone: string, body: string): Promise<SmsOutcome> {
    const outcome = await this.sender.send(phone, body);
    if (!outcome.accepted && outcome.code === TWILIO_UNSUBSCRIBED) await this.optOut(phone);
    return outcome;
  }

  async optedOut(phone: string): Promise<boolean> {
    const [row] = await this.db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, phone));
    return row !== undefined;
  }

  /** Whether someone still has this number, verified (it may have been removed since the SMS was queued). */
  private async stillVerified(phone: string): Promise<boolean> {
    const [row] = await this.db
      .select({ userId: smsNumbers.userId })
      .from(smsNumbers)
      .where(and(eq(smsNumbers.phone, phone), isNotNull(smsNumbers.verifiedAt)))
      .limit(1);
    return row !== undefined;
  }

  async optOut(phone: string): Promise<void> {
    await this.db.insert(smsOptOuts).values({ phone }).onConflictDoNothing();
  }

  async optIn(phone: string): Promise<void> {
    await this.db.delete(smsOptOuts).where(eq(smsOptOuts.phone, phone));
  }
}

const retryable = (o: Extract<SmsOutcome, { accepted: false }>) =>
  o.status === null || o.status === 429 || o.status >= 500;
