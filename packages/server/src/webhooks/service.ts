import { randomUUID } from 'node:crypto';
import {
  type AlertRecord,
  WEBHOOK_MESSAGES,
  WEBHOOKS_PER_USER,
  type WebhookDelivery,
  type WebhookRecord,
} from '@vitalwatch/shared';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/index.ts';
import { notificationJobs, webhookDeliveries, webhooks } from '../db/schema.ts';
import { badRequest, notFound } from '../errors.ts';
import { webhookBody } from './formats.ts';
import { newWebhookSecret } from './signing.ts';
import type { WebhookChannel, webhookJob } from './webhook-channel.ts';

/** The alert id a test message carries: no alert has it, so nothing reaches a timeline. */
const TEST_ALERT_ID = '00000000-0000-0000-0000-000000000000';
/** Deliveries the log shows per webhook. */
const LOG_LENGTH = 20;

type Format = WebhookRecord['format'];

/** A person's webhooks: add (the secret is returned once), list, delete, test, log, replay. */
export class WebhookService {
  private readonly db: Db;
  private readonly channel: WebhookChannel;

  constructor(db: Db, channel: WebhookChannel) {
    this.db = db;
    this.channel = channel;
  }

  async create(userId: string, input: { url: string; format: Format; routingKey?: string | undefined }) {
    if (input.format === 'pagerduty' && !input.routingKey)
      throw badRequest(WEBHOOK_MESSAGES.routingKeyNeeded);
    await this.channel.check(input.url);
    const [had] = await this.db.select({ n: count() }).from(webhooks).where(eq(webhooks.userId, userId));
    if ((had?.n ?? 0) >= WEBHOOKS_PER_USER) throw badRequest(WEBHOOK_MESSAGES.tooMany);
    const secret = newWebhookSecret();
    const [row] = await this.db
      .insert(webhooks)
      .values({ userId, url: input.url, format: input.format, secret, routingKey: input.routingKey ?? null })
      .returning();
    if (!row) throw new Error('webhook not stored');
    return { webhook: present(row, null), secret };
  }

  async list(userId: string): Promise<WebhookRecord[]> {
    const rows = await this.db
      .select({
        hook: webhooks,
        last: sql<{ at: string; ok: boolean; status: number | null } | null>`(
          select json_build_object('at', d.at, 'ok', d.ok, 'status', d.status) from ${webhookDeliveries} d
          where d.webhook_id = "webhooks"."id" order by d.at desc, d.id desc limit 1)`,
      })
      .from(webhooks)
      .where(eq(webhooks.userId, userId))
      .orderBy(webhooks.createdAt);
    return rows.map((r) => present(r.hook, r.last));
  }

  async remove(userId: string, id: string): Promise<WebhookRecord[]> {
    const gone = await this.db
      .delete(webhooks)
      .where(and(eq(webhooks.id, id), eq(webhooks.userId, userId)))
      .returning({ id: webhooks.id });
    if (gone.length === 0) throw notFound();
    return this.list(userId);
  }

  /** Send a test alert now, signed like a real one, and say what the receiver answered (logged too). */
  async test(userId: string, id: string) {
    const hook = await this.own(userId, id);
    const messageId = randomUUID();
    const now = new Date().toISOString();
    const alert: AlertRecord = {
      _id: TEST_ALERT_ID,
      device: TEST_ALERT_ID,
      priority: 'high',
      status: 'active',
      acknowledged: null,
      resolved: null,
      deviceName: 'VitalWatch test',
      alertType: 'TEST',
      alertTitle: 'Test alert',
      alertMessage: 'A test of this webhook. No action needed.',
      createdAt: now,
      receivedAt: now,
      isRead: false,
    };
    const body = webhookBody(hook.format, {
      id: messageId,
      alert,
      step: 0,
      link: this.channel.link,
      ...(hook.routingKey ? { routingKey: hook.routingKey } : {}),
    });
    const outcome = await this.channel.post(hook.url, hook.secret, messageId, body);
    await this.channel.logTry({ webhookId: hook.id, messageId, alertId: null, attempt: 1, body }, outcome);
    return outcome;
  }

  async log(userId: string, id: string): Promise<WebhookDelivery[]> {
    await this.own(userId, id);
    const rows = await this.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, id))
      .orderBy(desc(webhookDeliveries.at), desc(webhookDeliveries.id))
      .limit(LOG_LENGTH);
    return rows.map((d) => ({
      _id: String(d.id),
      messageId: d.messageId,
      alertId: d.alertId,
      at: d.at.toISOString(),
      attempt: d.attempt,
      status: d.status,
      ok: d.ok,
      response: d.response,
    }));
  }

  /** Queue a logged message again in the outbox: the same id and body (a receiver that had it drops it). */
  async replay(userId: string, id: string, deliveryId: string): Promise<void> {
    await this.own(userId, id);
    const [logged] = await this.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.webhookId, id), eq(webhookDeliveries.id, BigInt(deliveryId))));
    if (!logged) throw notFound();
    const payload: z.infer<typeof webhookJob> = { webhookId: id, alertId: logged.alertId, body: logged.body };
    await this.db
      .insert(notificationJobs)
      .values({
        id: logged.messageId,
        kind: 'webhook',
        alertId: logged.alertId ?? TEST_ALERT_ID,
        userId,
        target: id,
        payload,
      })
      .onConflictDoUpdate({
        target: notificationJobs.id,
        set: { status: 'queued', attempts: 0, runAt: new Date(), leaseUntil: null, lastError: null },
      });
  }

  private async own(userId: string, id: string) {
    const [hook] = await this.db
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.id, id), eq(webhooks.userId, userId)));
    if (!hook) throw notFound();
    return hook;
  }
}

function present(
  row: typeof webhooks.$inferSelect,
  last: { at: string; ok: boolean; status: number | null } | null,
): WebhookRecord {
  return {
    _id: row.id,
    url: row.url,
    format: row.format,
    createdAt: row.createdAt.toISOString(),
    lastDelivery: last && { ...last, at: new Date(last.at).toISOString() },
  };
}
