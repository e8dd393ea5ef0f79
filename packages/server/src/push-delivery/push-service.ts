import { randomUUID } from 'node:crypto';
import type { Agent } from 'node:https';
import {
  type AlertPriority,
  type AlertRecord,
  alertNotification,
  channelCheckNotification,
  type PushMessage,
} from '@vitalwatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import type webpush from 'web-push';
import { z } from 'zod';
import type { AlertActionTokens, PushReceiptTokens } from '../auth/tokens.ts';
import type { AppConfig } from '../config.ts';
import type { Tx } from '../db/index.ts';
import { groupBy } from '../lib/group-by.ts';
import { loadWebPush } from '../lib/optional-packages.ts';
import type { PushBrowsersService, PushSubscriptionRow } from '../modules/push-subscriptions/service.ts';
import { NO_ALERT_ID } from '../notification-outbox/no-alert.ts';
import type { FanoutItem, OutboxChannel, SendResult } from '../notification-outbox/outbox.ts';
import type { NewDelivery } from '../notification-outbox/repository.ts';
import { type PushEndpointGuard, RefusedPushEndpointError } from './endpoint-guard.ts';
import { RecentOutcomes } from './recent-outcomes.ts';
import { backoffMs, isTransientNetworkError, retryAfterMs } from './retry.ts';

export interface PushServiceOptions {
  /** Seconds a push service keeps a message for a browser that is offline. */
  ttlSeconds: number;
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
  maxAttempts: 4,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  requestTimeoutMs: 10_000,
  ca: undefined,
};

/** One push message as the outbox keeps it: the browser and the encrypted-to-be body. */
const pushJob = z.object({
  subscriptionId: z.string(),
  endpoint: z.string(),
  p256dh: z.string(),
  auth: z.string(),
  body: z.string(),
  urgency: z.enum(['very-low', 'low', 'normal', 'high']),
});

/**
 * The Web Push channel of the notification outbox: one message per browser of every contact told
 * of an alert, sent through the browser's push service with the RFC 8030 urgency of its priority.
 */
export class PushService implements OutboxChannel {
  readonly kind = 'push' as const;
  readonly timeoutMs: number;
  private readonly options: PushServiceOptions;
  private readonly outcomes = new RecentOutcomes();
  /** Every push goes through it: it connects only to public addresses of accepted push services. */
  private readonly agent: Agent;

  /** The browsers each user subscribed with. */
  private readonly browsers: PushBrowsersService;
  private readonly vapid: AppConfig['vapid'];
  /** Signs the token of each notification's Acknowledge button. */
  private readonly actions: AlertActionTokens;
  /** Signs each message's receipt token (shown, opened). */
  private readonly receipts: PushReceiptTokens;
  private readonly log: FastifyBaseLogger;
  /** Which endpoints may be sent to; also guards each connection. */
  private readonly endpoints: PushEndpointGuard;

  constructor(
    browsers: PushBrowsersService,
    vapid: AppConfig['vapid'],
    actions: AlertActionTokens,
    receipts: PushReceiptTokens,
    log: FastifyBaseLogger,
    endpoints: PushEndpointGuard,
    options: Partial<PushServiceOptions> = {},
  ) {
    this.browsers = browsers;
    this.vapid = vapid;
    this.actions = actions;
    this.receipts = receipts;
    this.log = log;
    this.endpoints = endpoints;
    this.options = { ...DEFAULTS, ...options };
    // The outbox's own limit, a little past the request's, so the push library reports first.
    this.timeoutMs = this.options.requestTimeoutMs + 1000;
    this.agent = endpoints.agent(this.options.ca === undefined ? {} : { ca: this.options.ca });
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

  /** One message per browser of each contact still notified of each alert (snoozes, quiet hours). */
  async deliveries(tx: Tx, items: readonly FanoutItem[]): Promise<NewDelivery[][]> {
    const users = [...new Set(items.flatMap((i) => [...i.notified]))];
    if (!this.vapid || users.length === 0) return items.map(() => []);
    const browsers = groupBy(await this.browsers.ofUsers(users, tx), (s) => s.userId);
    const out: NewDelivery[][] = [];
    for (const { alert, notified, step } of items) {
      const messages: NewDelivery[] = [];
      for (const userId of notified) {
        const subscriptions = browsers.get(userId) ?? [];
        if (subscriptions.length === 0) continue;
        // Only an alert someone still has to acknowledge gets the button (and its token).
        const ackToken = alert.status === 'active' ? await this.actions.sign(alert._id, userId) : undefined;
        for (const s of subscriptions) messages.push(await this.message(alert, step, s, ackToken));
      }
      out.push(messages);
    }
    return out;
  }

  /** One alert's message to one browser, its receipt token signed for it. */
  private async message(
    alert: AlertRecord,
    step: number,
    s: PushSubscriptionRow,
    ackToken: string | undefined,
  ): Promise<NewDelivery> {
    const id = randomUUID();
    const body = JSON.stringify({
      ...alertNotification(alert, step),
      ...(ackToken ? { ackToken } : {}),
      notificationId: id,
      receiptToken: await this.receipts.sign(id, alert._id, s.userId, s.id),
    });
    return {
      id,
      userId: s.userId,
      target: s.id,
      payload: {
        subscriptionId: s.id,
        endpoint: s.endpoint,
        p256dh: s.p256dh,
        auth: s.auth,
        body,
        urgency: URGENCY[alert.priority],
      } satisfies z.infer<typeof pushJob>,
    };
  }

  /**
   * A channel-health message to one browser: the daily check (brief, low urgency, one tag for all
   * checks) or a notice that another browser stopped receiving. It carries a receipt token like an
   * alert's, so its showing proves the browser receives; it belongs to no alert (`NO_ALERT_ID`),
   * so nothing of it reaches a timeline.
   */
  async healthDelivery(
    s: Pick<PushSubscriptionRow, 'id' | 'userId' | 'endpoint' | 'p256dh' | 'auth'>,
    message: PushMessage = channelCheckNotification(),
  ) {
    const id = randomUUID();
    const body = JSON.stringify({
      ...message,
      notificationId: id,
      receiptToken: await this.receipts.sign(id, NO_ALERT_ID, s.userId, s.id),
    });
    const payload: z.infer<typeof pushJob> = {
      subscriptionId: s.id,
      endpoint: s.endpoint,
      p256dh: s.p256dh,
      auth: s.auth,
      body,
      urgency: URGENCY[message.priority ?? 'low'],
    };
    return { id, userId: s.userId, target: s.id, payload } satisfies NewDelivery;
  }

  async send(job: { payload: unknown; attempt: number }): Promise<SendResult> {
    const message = pushJob.parse(job.payload);
    if (!this.vapid) return { ok: false, detail: 'push is not configured' };
    try {
      // Saved before the rules existed, or the allowed hosts changed since.
      const issue = this.endpoints.urlIssue(message.endpoint);
      if (issue) throw new RefusedPushEndpointError(issue, 'stored endpoint');
      const { sendNotification } = await webPushLoaded();
      await sendNotification(
        { endpoint: message.endpoint, keys: { p256dh: message.p256dh, auth: message.auth } },
        message.body,
        {
          vapidDetails: this.vapid,
          TTL: this.options.ttlSeconds,
          urgency: message.urgency,
          timeout: this.options.requestTimeoutMs,
          agent: this.agent,
        },
      );
    } catch (err) {
      return this.failed(message.subscriptionId, job.attempt, err);
    }
    this.outcomes.record(true);
    // The push service has it: noting when this browser last got one is bookkeeping. Its failure
    // (a database busy under load) must not make the send count as failed, which would send it
    // again (a duplicate) and dead-letter a push that arrived (bench:push saw both).
    await this.browsers
      .delivered(message.subscriptionId, new Date())
      .catch((err: unknown) =>
        this.log.warn(
          { err, subscriptionId: message.subscriptionId },
          'push sent; its last success not noted',
        ),
      );
    return { ok: true };
  }

  private async failed(subscriptionId: string, attempt: number, err: unknown): Promise<SendResult> {
    if (err instanceof RefusedPushEndpointError) {
      // Not a public push service, or its name now points into our network: never send there.
      await this.browsers.forget(subscriptionId);
      this.log.warn({ subscriptionId, issue: err.issue }, 'push endpoint refused: subscription deleted');
      return { ok: false, detail: 'push endpoint refused' };
    }
    // A push service's answer is a WebPushError: web-push was loaded to send it.
    const WebPushError = webPush?.WebPushError;
    const answer = WebPushError && err instanceof WebPushError ? err : undefined;
    const status = answer?.statusCode;
    if (status === 404 || status === 410) {
      // The browser unsubscribed or the subscription expired: it will never work again.
      await this.browsers.forget(subscriptionId);
      this.log.info({ subscriptionId, status }, 'push subscription gone: deleted');
      return { ok: false, detail: 'browser unsubscribed' };
    }
    const reason = err instanceof Error ? err.message : String(err);
    const detail = status ? `push service answered ${status}` : reason;
    const retryable = status === undefined ? isTransientNetworkError(err) : status === 429 || status >= 500;
    if (retryable && attempt < this.options.maxAttempts) {
      const asked = answer ? retryAfterMs(header(answer, 'retry-after')) : undefined;
      const { baseDelayMs, maxDelayMs } = this.options;
      if (asked === undefined || asked <= maxDelayMs) {
        return { ok: false, detail, retryInMs: asked ?? backoffMs(attempt, baseDelayMs, maxDelayMs) };
      }
    }
    this.outcomes.record(false);
    this.log.warn({ subscriptionId, status, attempt, reason }, 'push delivery failed');
    return { ok: false, detail };
  }
}

/** web-push, loaded for the first push sent (lib/optional-packages.ts); kept once loaded. */
let webPush: typeof webpush | undefined;
const webPushLoaded = async () => {
  webPush ??= await loadWebPush();
  return webPush;
};

/** RFC 8030 Urgency by alert priority: high wakes the device now, low may wait for it to be awake. */
const URGENCY: Record<AlertPriority, webpush.Urgency> = { high: 'high', medium: 'normal', low: 'low' };

/** A response header by name, whatever its case. */
function header(err: webpush.WebPushError, name: string): string | undefined {
  const entry = Object.entries(err.headers ?? {}).find(([key]) => key.toLowerCase() === name);
  return entry?.[1];
}
