import type { Agent } from 'node:https';
import { type AlertPriority, type AlertRecord, alertNotification } from '@vitalwatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { AlertActionTokens } from '../auth/tokens.ts';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { Audience, EscalationStep, EventBus } from '../lib/events.ts';
import { type NotificationLog, notifiedUsers } from '../modules/alert/service.ts';
import type { PushBrowsersService, PushSubscriptionRow } from '../modules/push-subscriptions/service.ts';
import { type PushEndpointGuard, RefusedPushEndpointError } from './endpoint-guard.ts';
import { RecentOutcomes } from './recent-outcomes.ts';
import { backoffMs, isTransientNetworkError, retryAfterMs } from './retry.ts';
import { TaskQueue } from './task-queue.ts';

export interface PushServiceOptions {
  /** Seconds a push service keeps a message for a browser that is offline. */
  ttlSeconds: number;
  /** Sends (and subscription look-ups) running at once. */
  concurrency: number;
  /** Tasks allowed to wait; beyond that new alerts are not pushed (and it is logged). */
  maxQueued: number;
  /** Attempts per message, including the first. */
  maxAttempts: number;
  baseDelayMs: number;
  /** Longest wait before a retry; a longer Retry-After ends the retries. */
  maxDelayMs: number;
  requestTimeoutMs: number;
  /** Certificate authorities to trust instead of the system's (tests trust their local push service). */
  ca: string | undefined;
}

const DEFAULTS: PushServiceOptions = {
  ttlSeconds: 3600,
  concurrency: 16,
  maxQueued: 10_000,
  maxAttempts: 4,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  requestTimeoutMs: 10_000,
  ca: undefined,
};

interface Delivery {
  alertId: string;
  subscription: PushSubscriptionRow;
  payload: string;
  urgency: webpush.Urgency;
}

/**
 * Sends every new alert to every browser of every user assigned to its device, in the background:
 * ingestion emits and moves on; a slow or failing push service only fills this queue.
 */
export class PushService {
  private readonly options: PushServiceOptions;
  private readonly queue: TaskQueue;
  private readonly outcomes = new RecentOutcomes();
  /** Every push goes through it: it connects only to public addresses of accepted push services. */
  private readonly agent: Agent;
  private readonly onAlerts = (audience: Audience, alerts: AlertRecord[]) =>
    this.notifyAlerts(audience, alerts);
  private readonly onEscalation = (audience: Audience, step: EscalationStep) =>
    this.notifyAlerts(audience, [step.alert], step.step);

  private readonly db: Db;
  /** The browsers each user subscribed with. */
  private readonly browsers: PushBrowsersService;
  private readonly vapid: AppConfig['vapid'];
  /** Signs the token of each notification's Acknowledge button. */
  private readonly actions: AlertActionTokens;
  /** Where each delivery's outcome goes, for the alert's timeline. */
  private readonly outcomeLog: NotificationLog;
  private readonly log: FastifyBaseLogger;
  /** Which endpoints may be sent to; also guards each connection. */
  private readonly endpoints: PushEndpointGuard;

  constructor(
    db: Db,
    browsers: PushBrowsersService,
    vapid: AppConfig['vapid'],
    actions: AlertActionTokens,
    outcomeLog: NotificationLog,
    log: FastifyBaseLogger,
    endpoints: PushEndpointGuard,
    options: Partial<PushServiceOptions> = {},
  ) {
    this.db = db;
    this.browsers = browsers;
    this.vapid = vapid;
    this.actions = actions;
    this.outcomeLog = outcomeLog;
    this.log = log;
    this.endpoints = endpoints;
    this.options = { ...DEFAULTS, ...options };
    this.agent = endpoints.agent(this.options.ca === undefined ? {} : { ca: this.options.ca });
    this.queue = new TaskQueue(this.options.concurrency, this.options.maxQueued, (err) =>
      this.log.error({ err }, 'push task failed'),
    );
  }

  /** The VAPID public key browsers subscribe with; undefined when push is off. */
  publicKey(): string | undefined {
    return this.vapid?.publicKey;
  }

  /** VAPID keys are loaded and sending is possible. */
  configured(): boolean {
    return this.vapid !== undefined;
  }

  /** Share of failed sends among recent final outcomes (0..1), or null when nothing was sent recently. */
  recentFailureRate(): number | null {
    return this.outcomes.failureRate();
  }

  listen(events: EventBus): void {
    events.on('alerts', this.onAlerts);
    events.on('escalation', this.onEscalation);
  }

  /** Queue the pushes of alerts to the audience's contacts and return at once (`repeat`: escalation step). */
  notifyAlerts(audience: Audience, alerts: AlertRecord[], repeat = 0): void {
    if (!this.vapid || alerts.length === 0 || audience.contactIds.length === 0) return;
    const userIds = [...new Set(audience.contactIds)];
    if (!this.queue.push(() => this.fanOut(userIds, alerts, repeat))) {
      this.log.warn(
        { deviceId: audience.deviceId, alerts: alerts.length },
        'push queue full: alerts not pushed',
      );
    }
  }

  /** Resolves once every queued, running and scheduled send has finished (tests, benchmarks). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  /** Stop listening, drop scheduled retries and wait for sends in flight. */
  async close(events: EventBus): Promise<void> {
    events.off('alerts', this.onAlerts);
    events.off('escalation', this.onEscalation);
    await this.queue.close();
    this.agent.destroy();
  }

  private async fanOut(userIds: string[], alerts: AlertRecord[], repeat: number): Promise<void> {
    const subscriptions = await this.browsers.ofUsers(userIds);
    const now = new Date();
    for (const alert of alerts) {
      const urgency = URGENCY[alert.priority];
      // Snoozes and quiet hours are each person's own: they silence only them.
      const notified = await notifiedUsers(this.db, userIds, alert, now);
      const payloads = new Map<string, string>();
      for (const subscription of subscriptions.filter((s) => notified.has(s.userId))) {
        let payload = payloads.get(subscription.userId);
        if (payload === undefined) {
          // Only an alert someone still has to acknowledge gets the button (and its token).
          const ackToken =
            alert.status === 'active' ? await this.actions.sign(alert._id, subscription.userId) : undefined;
          payload = JSON.stringify({
            ...alertNotification(alert, repeat),
            ...(ackToken ? { ackToken } : {}),
          });
          payloads.set(subscription.userId, payload);
        }
        const delivery = { alertId: alert._id, subscription, payload, urgency } satisfies Delivery;
        if (!this.queue.push(() => this.deliver(delivery, 1))) {
          this.log.warn({ subscriptionId: subscription.id }, 'push queue full: message dropped');
        }
      }
    }
  }

  private async deliver(delivery: Delivery, attempt: number): Promise<void> {
    const { subscription } = delivery;
    try {
      // Saved before the rules existed, or the allowed hosts changed since.
      const issue = this.endpoints.urlIssue(subscription.endpoint);
      if (issue) throw new RefusedPushEndpointError(issue, 'stored endpoint');
      await webpush.sendNotification(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        delivery.payload,
        {
          vapidDetails: this.vapid,
          TTL: this.options.ttlSeconds,
          urgency: delivery.urgency,
          timeout: this.options.requestTimeoutMs,
          agent: this.agent,
        },
      );
    } catch (err) {
      await this.failed(delivery, attempt, err);
      return;
    }
    this.outcomes.record(true);
    await this.browsers.delivered(subscription.id, new Date());
    this.record(delivery, true);
  }

  /** The final outcome, on the alert's timeline. */
  private record(delivery: Delivery, ok: boolean, detail?: string): void {
    const { alertId, subscription } = delivery;
    this.outcomeLog.record({ alertId, userId: subscription.userId, channel: 'push', ok, detail });
  }

  private async failed(delivery: Delivery, attempt: number, err: unknown): Promise<void> {
    const subscriptionId = delivery.subscription.id;
    if (err instanceof RefusedPushEndpointError) {
      // Not a public push service, or its name now points into our network: never send there.
      await this.browsers.forget(subscriptionId);
      this.log.warn({ subscriptionId, issue: err.issue }, 'push endpoint refused: subscription deleted');
      this.record(delivery, false, 'push endpoint refused');
      return;
    }
    const status = err instanceof webpush.WebPushError ? err.statusCode : undefined;
    if (status === 404 || status === 410) {
      // The browser unsubscribed or the subscription expired: it will never work again.
      await this.browsers.forget(subscriptionId);
      this.log.info({ subscriptionId, status }, 'push subscription gone: deleted');
      this.record(delivery, false, 'browser unsubscribed');
      return;
    }
    const retryable = status === undefined ? isTransientNetworkError(err) : status === 429 || status >= 500;
    if (retryable && attempt < this.options.maxAttempts) {
      const asked =
        err instanceof webpush.WebPushError ? retryAfterMs(header(err, 'retry-after')) : undefined;
      const { baseDelayMs, maxDelayMs } = this.options;
      if (asked === undefined || asked <= maxDelayMs) {
        const delay = asked ?? backoffMs(attempt, baseDelayMs, maxDelayMs);
        if (this.queue.later(delay, () => this.deliver(delivery, attempt + 1))) return;
      }
    }
    this.outcomes.record(false);
    const reason = err instanceof Error ? err.message : String(err);
    this.log.warn({ subscriptionId, status, attempt, reason }, 'push delivery failed');
    this.record(delivery, false, status ? `push service answered ${status}` : reason);
  }
}

/** RFC 8030 Urgency by alert priority: high wakes the device now, low may wait for it to be awake. */
const URGENCY: Record<AlertPriority, webpush.Urgency> = { high: 'high', medium: 'normal', low: 'low' };

/** A response header by name, whatever its case. */
function header(err: webpush.WebPushError, name: string): string | undefined {
  const entry = Object.entries(err.headers ?? {}).find(([key]) => key.toLowerCase() === name);
  return entry?.[1];
}
