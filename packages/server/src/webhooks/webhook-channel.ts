import type { Agent } from 'node:https';
import https from 'node:https';
import { type AlertRecord, WEBHOOK_MAX_ATTEMPTS } from '@vitalwatch/shared';
import { and, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db, Tx } from '../db/index.ts';
import { teamDevices, webhookDeliveries, webhooks } from '../db/schema.ts';
import { groupBy } from '../lib/group-by.ts';
import type { FanoutItem, OutboxChannel, SendResult } from '../notification-outbox/outbox.ts';
import type { NewDelivery } from '../notification-outbox/repository.ts';
import type { PushEndpointGuard } from '../push-delivery/endpoint-guard.ts';
import { backoffMs } from '../push-delivery/retry.ts';
import { webhookBody } from './formats.ts';
import { signatureHeaders, signingSecrets } from './signing.ts';

export interface WebhookOptions {
  /** Tries per message, the first included: 5xx, 429 and time-outs are tried again, other answers not. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest a receiver may take to answer. */
  requestTimeoutMs: number;
  /** Certificate authorities to trust instead of the system's (tests trust their local receiver). */
  ca: string | undefined;
}

const DEFAULTS: WebhookOptions = {
  maxAttempts: WEBHOOK_MAX_ATTEMPTS,
  baseDelayMs: 2_000,
  maxDelayMs: 60_000,
  requestTimeoutMs: 10_000,
  ca: undefined,
};
/** Characters of a receiver's answer kept in the delivery log. */
const RESPONSE_KEPT = 500;

/** One webhook message as the outbox keeps it: the body is fixed when queued, so every try signs the same bytes. */
export const webhookJob = z.object({
  webhookId: z.string(),
  alertId: z.string().nullable(),
  body: z.string(),
});

/** What one POST came to. */
export interface PostOutcome {
  status: number | null;
  ok: boolean;
  response: string;
}

/**
 * The webhook channel of the notification outbox: each alert a person is told of is POSTed to
 * each of their webhooks as JSON in the receiver's format, signed (Standard Webhooks headers),
 * with the row's id as `webhook-id` so a receiver drops a repeat. Connections go only to public
 * addresses (the push endpoint rules, checked again at every connection). Every try is logged.
 */
export class WebhookChannel implements OutboxChannel {
  readonly kind = 'webhook' as const;
  readonly timeoutMs: number;
  private readonly options: WebhookOptions;
  private readonly agent: Agent;
  private readonly db: Db;
  private readonly guard: PushEndpointGuard;
  /** Absolute URL of the alerts page, the link in each message. */
  readonly link: string;
  private readonly log: FastifyBaseLogger;

  constructor(
    db: Db,
    guard: PushEndpointGuard,
    alertsUrl: string,
    log: FastifyBaseLogger,
    options: Partial<WebhookOptions> = {},
  ) {
    this.db = db;
    this.guard = guard;
    this.link = alertsUrl;
    this.log = log;
    this.options = { ...DEFAULTS, ...options };
    this.timeoutMs = this.options.requestTimeoutMs + 1000;
    this.agent = guard.agent(this.options.ca === undefined ? {} : { ca: this.options.ca });
  }

  /** The address rule a webhook URL breaks, if any (checked when it is saved and before each send). */
  urlIssue(url: string) {
    return this.guard.urlIssue(url);
  }

  /** Saving time: also resolves the name (every address must be public). */
  check(url: string): Promise<void> {
    return this.guard.check(url);
  }

  /**
   * One message per webhook of each contact told of each alert at its step; and, unless it is a
   * person's fallback rung, one per webhook of each care team holding the device and per platform
   * webhook (admins' webhooks, told of every alert whoever its contacts are).
   */
  async deliveries(tx: Tx, items: readonly FanoutItem[]): Promise<NewDelivery[][]> {
    const told = items.filter((i) => i.contactIds.length > 0);
    const users = [...new Set(told.flatMap((i) => [...i.notified]))];
    const own =
      users.length === 0
        ? []
        : await tx
            .select()
            .from(webhooks)
            .where(and(eq(webhooks.scope, 'user'), inArray(webhooks.userId, users)));
    const devices = [...new Set(told.filter((i) => !i.fallback).map((i) => i.alert.device))];
    const shared =
      devices.length === 0
        ? []
        : await tx
            .select({ hook: webhooks, deviceId: teamDevices.deviceId })
            .from(webhooks)
            .leftJoin(
              teamDevices,
              and(
                eq(webhooks.scope, 'team'),
                eq(teamDevices.teamId, webhooks.teamId),
                inArray(teamDevices.deviceId, devices),
              ),
            )
            .where(
              or(
                eq(webhooks.scope, 'platform'),
                and(eq(webhooks.scope, 'team'), isNotNull(teamDevices.deviceId)),
              ),
            );
    const ownBy = groupBy(own, (hook) => hook.userId);
    const platform = shared.filter((r) => r.hook.scope === 'platform').map((r) => r.hook);
    const teamsBy = groupBy(
      shared.filter((r) => r.hook.scope === 'team'),
      (r) => r.deviceId,
    );
    return items.map(({ alert, contactIds, notified, step, fallback }) => {
      if (contactIds.length === 0) return [];
      const hooks = [
        ...[...notified].flatMap((userId) => ownBy.get(userId) ?? []),
        ...(fallback ? [] : [...platform, ...(teamsBy.get(alert.device) ?? []).map((r) => r.hook)]),
      ];
      return hooks.map((hook) => {
        const id = crypto.randomUUID();
        return { id, userId: hook.userId, target: hook.id, payload: this.message(hook, id, alert, step) };
      });
    });
  }

  /** The outbox payload of one alert's message to one webhook: its body fixed now, in the hook's format. */
  message(
    hook: typeof webhooks.$inferSelect,
    id: string,
    alert: AlertRecord,
    step: number,
  ): z.infer<typeof webhookJob> {
    const body = webhookBody(hook.format, {
      id,
      alert,
      step,
      link: this.link,
      ...(hook.routingKey ? { routingKey: hook.routingKey } : {}),
    });
    return { webhookId: hook.id, alertId: alert._id, body };
  }

  async send(job: { id: string; payload: unknown; attempt: number }): Promise<SendResult> {
    const message = webhookJob.parse(job.payload);
    const [hook] = await this.db.select().from(webhooks).where(eq(webhooks.id, message.webhookId));
    if (!hook) return { ok: false, detail: 'webhook deleted' };
    const outcome = await this.post(hook.url, signingSecrets(hook), job.id, message.body);
    // The receiver answered: a delivery log row that cannot be written (a database busy under
    // load) must not turn the answer into a failure, sent again (a duplicate) and dead-lettered.
    await this.logTry(
      {
        webhookId: hook.id,
        messageId: job.id,
        alertId: message.alertId,
        attempt: job.attempt,
        body: message.body,
      },
      outcome,
    ).catch((err: unknown) =>
      this.log.warn({ err, webhookId: hook.id, messageId: job.id }, 'webhook try not logged'),
    );
    if (outcome.ok) return { ok: true };
    const detail = outcome.status === null ? outcome.response : `webhook answered ${outcome.status}`;
    const retryable = outcome.status === null || outcome.status === 429 || outcome.status >= 500;
    if (retryable && job.attempt < this.options.maxAttempts) {
      return {
        ok: false,
        detail,
        retryInMs: backoffMs(job.attempt, this.options.baseDelayMs, this.options.maxDelayMs),
      };
    }
    this.log.warn({ webhookId: hook.id, attempt: job.attempt, detail }, 'webhook delivery failed');
    return { ok: false, detail };
  }

  /** Add one try to the delivery log. */
  async logTry(
    sent: { webhookId: string; messageId: string; alertId: string | null; attempt: number; body: string },
    outcome: PostOutcome,
  ): Promise<void> {
    await this.db.insert(webhookDeliveries).values({
      ...sent,
      status: outcome.status,
      ok: outcome.ok,
      response: outcome.response.slice(0, RESPONSE_KEPT),
    });
  }

  /**
   * POST one body signed with each secret (two while a rotation overlaps); never throws: a refused
   * address, a time-out or a network error is an outcome.
   */
  async post(url: string, secrets: readonly string[], id: string, body: string): Promise<PostOutcome> {
    const issue = this.guard.urlIssue(url);
    if (issue) return { status: null, ok: false, response: `address refused (${issue})` };
    return new Promise<PostOutcome>((resolve) => {
      const request = https.request(
        url,
        {
          method: 'POST',
          agent: this.agent,
          timeout: this.options.requestTimeoutMs,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'VitalWatch-Webhooks/1',
            ...signatureHeaders(secrets, id, body),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            if (size < RESPONSE_KEPT) chunks.push(chunk);
            size += chunk.length;
          });
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            resolve({
              status,
              ok: status >= 200 && status < 300,
              response: Buffer.concat(chunks).toString('utf8'),
            });
          });
          res.on('error', (err) =>
            resolve({ status: res.statusCode ?? null, ok: false, response: err.message }),
          );
        },
      );
      request.on('timeout', () =>
        request.destroy(new Error(`no answer within ${this.options.requestTimeoutMs} ms`)),
      );
      request.on('error', (err) => resolve({ status: null, ok: false, response: err.message }));
      request.end(body);
    });
  }
}
