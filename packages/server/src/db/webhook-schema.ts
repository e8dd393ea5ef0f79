import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

/**
 * Webhooks (migrations 0020, 0023, 0029), a person's, a care team's or the platform's: where each alert
 * they hear of is POSTed, in which format, and the secret it is signed with (shown once, when
 * made). The owner's and the team's foreign keys are in the SQL.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** `user`: a person's (alerts they are told of); `team`: a care team's (its devices' alerts); `platform`: every alert. */
    scope: text('scope', { enum: ['user', 'team', 'platform'] })
      .notNull()
      .default('user'),
    /** The owner of a person's webhook; null for a team's or the platform's. */
    userId: uuid('user_id'),
    /** The care team of a team webhook (foreign key in the SQL). */
    teamId: uuid('team_id'),
    url: text('url').notNull(),
    format: text('format', { enum: ['json', 'slack', 'teams', 'ntfy', 'pagerduty'] })
      .notNull()
      .default('json'),
    secret: text('secret').notNull(),
    /** After a rotation, the secret before it: it also signs every message until `previousSecretUntil`. */
    previousSecret: text('previous_secret'),
    previousSecretUntil: ts('previous_secret_until'),
    /** PagerDuty only: the integration's routing key, sent in the body. */
    routingKey: text('routing_key'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('webhooks_user_idx').on(t.userId),
    index('webhooks_team_idx').on(t.teamId).where(sql`${t.teamId} is not null`),
  ],
);

/** Every try of every webhook message: what was sent and what came back (the delivery log, and replay's source). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    webhookId: uuid('webhook_id').notNull(),
    /** The message's idempotency id (`webhook-id`): the same on every try and on a replay. */
    messageId: uuid('message_id').notNull(),
    alertId: uuid('alert_id'),
    at: ts('at').notNull().defaultNow(),
    attempt: integer('attempt').notNull(),
    /** The HTTP status, or null when no answer came (refused, timed out). */
    status: integer('status'),
    ok: boolean('ok').notNull(),
    /** The start of the answer's body, or what went wrong. */
    response: text('response'),
    body: text('body').notNull(),
  },
  (t) => [index('webhook_deliveries_hook_idx').on(t.webhookId, t.at)],
);
