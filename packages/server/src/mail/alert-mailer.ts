import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Tx } from '../db/index.ts';
import type { FanoutItem, OutboxChannel, SendResult } from '../notification-outbox/outbox.ts';
import type { NewDelivery } from '../notification-outbox/repository.ts';
import { backoffMs } from '../push-delivery/retry.ts';
import { alertMail } from './alert-mail.ts';
import type { Mailer } from './mailer.ts';
import { alertEmailRecipients } from './repository.ts';

export interface AlertMailerOptions {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest one mail may take to hand over. */
  timeoutMs: number;
}

const DEFAULTS: AlertMailerOptions = {
  maxAttempts: 3,
  baseDelayMs: 5_000,
  maxDelayMs: 60_000,
  timeoutMs: 30_000,
};

/** SMTP said "try later" (4xx) or the connection failed; a 5xx is a permanent refusal. */
export function isTransientMailError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const { responseCode, code } = err as { responseCode?: unknown; code?: unknown };
  if (typeof responseCode === 'number') return responseCode >= 400 && responseCode < 500;
  return typeof code === 'string' && ['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS'].includes(code);
}

const outgoingMail = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  headers: z.record(z.string(), z.string()).optional(),
  messageId: z.string().optional(),
});

/**
 * The e-mail channel of the notification outbox: one mail per alert per contact who opted in (each
 * escalation step to every contact, whatever the opt-in), with a Message-ID made of the job's id so
 * a mail sent twice after a crash is one message to the reader's mail system.
 */
export class AlertMailer implements OutboxChannel {
  readonly kind = 'email' as const;
  readonly timeoutMs: number;
  private readonly options: AlertMailerOptions;

  private readonly mailer: Mailer;
  /** Absolute URL of the alerts page, for the link in each mail. */
  private readonly alertsUrl: string;
  private readonly log: FastifyBaseLogger;

  constructor(
    mailer: Mailer,
    alertsUrl: string,
    log: FastifyBaseLogger,
    options: Partial<AlertMailerOptions> = {},
  ) {
    this.mailer = mailer;
    this.alertsUrl = alertsUrl;
    this.log = log;
    this.options = { ...DEFAULTS, ...options };
    this.timeoutMs = this.options.timeoutMs;
  }

  /**
   * One mail per contact who asked for them (every contact at an escalation step, and a person the
   * fallback ladder tries by e-mail), snoozes applied.
   */
  async deliveries(tx: Tx, items: readonly FanoutItem[]): Promise<NewDelivery[][]> {
    const users = [...new Set(items.flatMap((i) => [...i.notified]))];
    const recipients = new Map((await alertEmailRecipients(tx, users)).map((r) => [r.id, r]));
    return items.map(({ alert, notified, step, fallback }) => {
      const escalated = step > 0;
      return [...notified].flatMap((userId) => {
        const recipient = recipients.get(userId);
        if (!recipient || !(recipient.alertEmails || escalated || fallback)) return [];
        const id = randomUUID();
        const mail = alertMail(alert, recipient, this.alertsUrl, escalated);
        return [
          {
            id,
            userId: recipient.id,
            target: recipient.email,
            payload: { ...mail, messageId: `<${id}@vitalwatch.notification>` },
          },
        ];
      });
    });
  }

  async send(job: { payload: unknown; attempt: number }): Promise<SendResult> {
    const mail = outgoingMail.parse(job.payload);
    try {
      await this.mailer.send(mail);
      return { ok: true };
    } catch (err) {
      const { maxAttempts, baseDelayMs, maxDelayMs } = this.options;
      const detail = err instanceof Error ? err.message : String(err);
      if (isTransientMailError(err) && job.attempt < maxAttempts) {
        return { ok: false, detail, retryInMs: backoffMs(job.attempt, baseDelayMs, maxDelayMs) };
      }
      this.log.warn({ err, attempt: job.attempt }, 'alert mail not sent');
      return { ok: false, detail };
    }
  }

  close(): void {
    this.mailer.close();
  }
}
