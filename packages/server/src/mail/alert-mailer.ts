import type { AlertRecord } from '@vitalwatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.ts';
import type { Audience, EscalationStep, EventBus } from '../lib/events.ts';
import { type NotificationLog, notifiedUsers } from '../modules/alert/service.ts';
import { backoffMs } from '../push-delivery/retry.ts';
import { TaskQueue } from '../push-delivery/task-queue.ts';
import { alertMail } from './alert-mail.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';
import { alertEmailRecipients } from './repository.ts';

/** Whom one alert mail is for, to record its outcome on the alert's timeline. */
interface MailTarget {
  alertId: string;
  userId: string;
}

export interface AlertMailerOptions {
  concurrency: number;
  maxQueued: number;
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

const DEFAULTS: AlertMailerOptions = {
  concurrency: 2,
  maxQueued: 10_000,
  maxAttempts: 3,
  baseDelayMs: 5_000,
  maxDelayMs: 60_000,
};

/** SMTP said "try later" (4xx) or the connection failed; a 5xx is a permanent refusal. */
export function isTransientMailError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const { responseCode, code } = err as { responseCode?: unknown; code?: unknown };
  if (typeof responseCode === 'number') return responseCode >= 400 && responseCode < 500;
  return typeof code === 'string' && ['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS'].includes(code);
}

/**
 * Emails every new alert to the assigned users who opted in: one mail per alert per user, sent in
 * the background so a slow SMTP server never delays ingestion.
 */
export class AlertMailer {
  private readonly options: AlertMailerOptions;
  private readonly queue: TaskQueue;
  private readonly onAlerts = (audience: Audience, alerts: AlertRecord[]) =>
    this.notifyAlerts(audience, alerts);
  /** An unacknowledged high-priority alert is mailed to its contacts even without their opt-in. */
  private readonly onEscalation = (audience: Audience, step: EscalationStep) =>
    this.notifyAlerts(audience, [step.alert], true);

  private readonly db: Db;
  private readonly mailer: Mailer;
  /** Absolute URL of the alerts page, for the link in each mail. */
  private readonly alertsUrl: string;
  /** Where each mail's outcome goes, for the alert's timeline. */
  private readonly outcomeLog: NotificationLog;
  private readonly log: FastifyBaseLogger;

  constructor(
    db: Db,
    mailer: Mailer,
    alertsUrl: string,
    outcomeLog: NotificationLog,
    log: FastifyBaseLogger,
    options: Partial<AlertMailerOptions> = {},
  ) {
    this.db = db;
    this.mailer = mailer;
    this.alertsUrl = alertsUrl;
    this.outcomeLog = outcomeLog;
    this.log = log;
    this.options = { ...DEFAULTS, ...options };
    this.queue = new TaskQueue(this.options.concurrency, this.options.maxQueued, (err) =>
      this.log.error({ err }, 'alert mail task failed'),
    );
  }

  listen(events: EventBus): void {
    events.on('alerts', this.onAlerts);
    events.on('escalation', this.onEscalation);
  }

  /** Mail alerts to the audience's contacts who opted in (all of them when `escalated`). */
  notifyAlerts(audience: Audience, alerts: AlertRecord[], escalated = false): void {
    if (alerts.length === 0 || audience.contactIds.length === 0) return;
    const userIds = [...new Set(audience.contactIds)];
    if (!this.queue.push(() => this.fanOut(userIds, alerts, escalated))) {
      this.log.warn({ deviceId: audience.deviceId }, 'mail queue full: alerts not mailed');
    }
  }

  /** Resolves once every queued and scheduled mail has been handled (tests). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  async close(events: EventBus): Promise<void> {
    events.off('alerts', this.onAlerts);
    events.off('escalation', this.onEscalation);
    await this.queue.close();
    this.mailer.close();
  }

  private async fanOut(userIds: string[], alerts: AlertRecord[], escalated: boolean): Promise<void> {
    const recipients = await alertEmailRecipients(this.db, userIds, escalated);
    const now = new Date();
    for (const alert of alerts) {
      // Snoozes and quiet hours are each person's own: they silence only them.
      const notified = await notifiedUsers(this.db, userIds, alert, now);
      for (const recipient of recipients.filter((r) => notified.has(r.id))) {
        const mail = alertMail(alert, recipient, this.alertsUrl, escalated);
        const to = { alertId: alert._id, userId: recipient.id };
        if (!this.queue.push(() => this.send(mail, to, 1))) {
          this.log.warn({ alertId: alert._id }, 'mail queue full: alert mail dropped');
        }
      }
    }
  }

  private async send(mail: OutgoingMail, to: MailTarget, attempt: number): Promise<void> {
    try {
      await this.mailer.send(mail);
    } catch (err) {
      const { maxAttempts, baseDelayMs, maxDelayMs } = this.options;
      if (isTransientMailError(err) && attempt < maxAttempts) {
        const delay = backoffMs(attempt, baseDelayMs, maxDelayMs);
        if (this.queue.later(delay, () => this.send(mail, to, attempt + 1))) return;
      }
      this.log.warn({ err, attempt }, 'alert mail not sent');
      this.record(to, false, err instanceof Error ? err.message : String(err));
      return;
    }
    this.record(to, true);
  }

  /** The final outcome, on the alert's timeline. */
  private record(to: MailTarget, ok: boolean, detail?: string): void {
    this.outcomeLog.record({ ...to, channel: 'email', ok, detail });
  }
}
