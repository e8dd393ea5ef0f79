import { randomUUID } from 'node:crypto';
import {
  type AlertRecord,
  WEBHOOK_MESSAGES,
  WEBHOOK_SECRET_OVERLAP_MS,
  WEBHOOKS_PER_USER,
  type WebhookDelivery,
  type WebhookRecord,
} from '@vitalwatch/shared';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/index.ts';
import { notificationJobs, teams, webhookDeliveries, webhooks } from '../db/schema.ts';
import { badRequest, notFound } from '../errors.ts';
import { NO_ALERT_ID } from '../notification-outbox/no-alert.ts';
import { webhookBody } from './formats.ts';
import { newWebhookSecret, signingSecrets } from './signing.ts';
import type { WebhookChannel, webhookJob } from './webhook-channel.ts';

/** Deliveries the log shows per webhook. */
const LOG_LENGTH = 20;

type Format = WebhookRecord['format'];

/** Whose webhooks: a person's own, a care team's, or the platform's (the last two managed by admins). */
export type WebhookOwner =
  | { scope: 'user'; userId: string }
  | { scope: 'team'; teamId: string }
  | { scope: 'platform' };

/** The rows of one owner's webhooks. */
function ownedBy(owner: WebhookOwner) {
  if (owner.scope === 'user') return and(eq(webhooks.scope, 'user'), eq(webhooks.userId, owner.userId));
  if (owner.scope === 'team') return and(eq(webhooks.scope, 'team'), eq(webhooks.teamId, owner.teamId));
  return eq(webhooks.scope, 'platform');
}

/** One owner's webhooks (a person's, a team's, the platform's): add (the secret is returned once), list, delete, test, log, replay. */
export class WebhookService {
  private readonly db: Db;
  private readonly channel: WebhookChannel;

  constructor(db: Db, channel: WebhookChannel) {
    this.db = db;
    this.channel = channel;
  }

  /** A care team as the owner of webhooks; 404 when there is no such team. */
  async teamOwner(teamId: string): Promise<WebhookOwner> {
    const [row] = await this.db.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId));
    if (!row) throw notFound('Team not found');
    return { scope: 'team', teamId };
  }

  async create(owner: WebhookOwner, input: { url: string; format: Format; routingKey?: string | undefined }) {
    if (input.format === 'pagerduty' && !input.routingKey)
      throw badRequest(WEBHOOK_MESSAGES.routingKeyNeeded);
    await this.channel.check(input.url);
    const [had] = await this.db.select({ n: count() }).from(webhooks).where(ownedBy(owner));
    if ((had?.n ?? 0) >= WEBHOOKS_PER_USER) throw badRequest(WEBHOOK_MESSAGES.tooMany);
    const secret = newWebhookSecret();
    const [row] = await this.db
      .insert(webhooks)
      .values({
        scope: owner.scope,
        userId: owner.scope === 'user' ? owner.userId : null,
        teamId: owner.scope === 'team' ? owner.teamId : null,
        url: input.url,
        format: input.format,
        secret,
        routingKey: input.routingKey ?? null,
      })
      .returning();
    if (!row) throw new Error('webhook not stored');
    return { webhook: present(row, null), secret };
  }

  async list(owner: WebhookOwner): Promise<WebhookRecord[]> {
    const rows = await this.db
      .select({
        hook: webhooks,
        last: sql<{ at: string; ok: boolean; status: number | null } | null>`(
          select json_build_object('at', d.at, 'ok', d.ok, 'status', d.status) from ${webhookDeliveries} d
          where d.webhook_id = "webhooks"."id" order by d.at desc, d.id desc limit 1)`,
      })
      .from(webhooks)
      .where(ownedBy(owner))
      .orderBy(webhooks.createdAt);
    return rows.map((r) => present(r.hook, r.last));
  }

  async remove(owner: WebhookOwner, id: string): Promise<WebhookRecord[]> {
    const gone = await this.db
      .delete(webhooks)
      .where(and(eq(webhooks.id, id), ownedBy(owner)))
      .returning({ id: webhooks.id });
    if (gone.length === 0) throw notFound();
    return this.list(owner);
  }

  /**
   * A new signing secret (returned this once). The old one keeps signing every message beside it
   * for WEBHOOK_SECRET_OVERLAP_MS, so receivers can deploy the new one without dropping any; one
   * statement, so two rotations at once cannot lose a secret. Rotating again within the overlap
   * keeps only the secret just replaced (the one a receiver most likely holds) beside the new one.
   */
  async rotate(owner: WebhookOwner, id: string): Promise<{ webhook: WebhookRecord; secret: string }> {
    const secret = newWebhookSecret();
    const [row] = await this.db
      .update(webhooks)
      .set({
        previousSecret: sql`${webhooks.secret}`,
        previousSecretUntil: new Date(Date.now() + WEBHOOK_SECRET_OVERLAP_MS),
        secret,
      })
      .where(and(eq(webhooks.id, id), ownedBy(owner)))
      .returning();
    if (!row) throw notFound();
    const [listed] = (await this.list(owner)).filter((hook) => hook._id === id);
    return { webhook: listed ?? present(row, null), secret };
  }

  /** Send a test alert now, signed like a real one, and say what the receiver answered (logged too). */
  async test(owner: WebhookOwner, id: string) {
    const hook = await this.own(owner, id);
    const messageId = randomUUID();
    const now = new Date().toISOString();
    const alert: AlertRecord = {
      _id: NO_ALERT_ID,
      device: NO_ALERT_ID,
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
    const outcome = await this.channel.post(hook.url, signingSecrets(hook), messageId, body);
    await this.channel.logTry({ webhookId: hook.id, messageId, alertId: null, attempt: 1, body }, outcome);
    return outcome;
  }

  async log(owner: WebhookOwner, id: string): Promise<WebhookDelivery[]> {
    await this.own(owner, id);
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
  async replay(owner: WebhookOwner, id: string, deliveryId: string): Promise<void> {
    const hook = await this.own(owner, id);
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
        alertId: logged.alertId ?? NO_ALERT_ID,
        userId: hook.userId,
        target: id,
        payload,
      })
      .onConflictDoUpdate({
        target: notificationJobs.id,
        set: { status: 'queued', attempts: 0, runAt: new Date(), leaseUntil: null, lastError: null },
      });
  }

  private async own(owner: WebhookOwner, id: string) {
    const [hook] = await this.db
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.id, id), ownedBy(owner)));
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
    previousSecretUntil:
      signingSecrets(row).length > 1 && row.previousSecretUntil
        ? row.previousSecretUntil.toISOString()
        : null,
    lastDelivery: last && { ...last, at: new Date(last.at).toISOString() },
  };
}
