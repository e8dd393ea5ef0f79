import { z } from 'zod';
import { envelope } from './common.ts';

/** Receivers a webhook can speak to: VitalWatch's own JSON, or a ready-made format. */
export const WEBHOOK_FORMATS = ['json', 'slack', 'teams', 'ntfy', 'pagerduty'] as const;
export const WEBHOOK_FORMAT_LABELS: Record<(typeof WEBHOOK_FORMATS)[number], string> = {
  json: 'JSON (signed)',
  slack: 'Slack incoming webhook',
  teams: 'Microsoft Teams incoming webhook',
  ntfy: 'ntfy',
  pagerduty: 'PagerDuty Events API v2',
};
/** Tries per webhook message, the first included (5xx, 429 and time-outs are tried again). */
export const WEBHOOK_MAX_ATTEMPTS = 5;
/** Webhooks one person, one care team or the platform may have. */
export const WEBHOOKS_PER_USER = 10;
/**
 * After "Rotate secret", how long every message is signed with both the new and the old secret
 * (Standard Webhooks: several `v1,` signatures in `webhook-signature`). Receivers need time to
 * deploy the new secret: a day covers a change request and a deploy in working hours across time
 * zones, and a receiver that still holds the old one keeps verifying until then, none dropped.
 */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

export const WEBHOOK_MESSAGES = {
  created: 'Webhook added. Copy its signing secret now: it is not shown again',
  listed: 'Webhooks fetched',
  deleted: 'Webhook deleted',
  tested: 'Test alert sent',
  log: 'Webhook deliveries fetched',
  replayed: 'Delivery queued again',
  rotated:
    'New signing secret made. Copy it now: it is not shown again. The old one also signs messages for 24 hours',
  tooMany: `At most ${WEBHOOKS_PER_USER} webhooks per person, care team or platform`,
  routingKeyNeeded: 'A PagerDuty webhook needs the integration’s routing key',
} as const;

export const createWebhookBody = z
  .object({
    url: z.string().url('url must be a URL').max(2000),
    format: z.enum(WEBHOOK_FORMATS, { error: `format must be one of ${WEBHOOK_FORMATS.join(', ')}` }),
    routingKey: z.string().trim().min(1).max(64).optional(),
  })
  .strict();

export const webhookRecord = z.object({
  _id: z.string(),
  url: z.string(),
  format: z.enum(WEBHOOK_FORMATS),
  createdAt: z.string(),
  /** The newest try: when, and whether it arrived. */
  lastDelivery: z.object({ at: z.string(), ok: z.boolean(), status: z.number().nullable() }).nullable(),
  /**
   * After a rotation: until when the old secret also signs every message; null when only one
   * signs. The server always sends it; a reply without it (a fixture, an older server) reads null.
   */
  previousSecretUntil: z.string().nullable().default(null),
});
export type WebhookRecord = z.infer<typeof webhookRecord>;

export const webhookDelivery = z.object({
  _id: z.string(),
  messageId: z.string(),
  alertId: z.string().nullable(),
  at: z.string(),
  attempt: z.number().int(),
  status: z.number().nullable(),
  ok: z.boolean(),
  response: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDelivery>;

/**
 * Whether a failed try was the message's last (a dead letter): an answer not tried again (a 4xx
 * other than 429), or the last of its tries. Replay from the log sends it again.
 */
export const webhookGaveUp = (d: Pick<WebhookDelivery, 'ok' | 'status' | 'attempt'>): boolean =>
  !d.ok && (d.attempt >= WEBHOOK_MAX_ATTEMPTS || (d.status !== null && d.status < 500 && d.status !== 429));

export const webhookIdParams = z.object({ id: z.string().uuid() });
export const createWebhookResponse = envelope(z.object({ webhook: webhookRecord, secret: z.string() }));
export const webhooksResponse = envelope(z.object({ webhooks: z.array(webhookRecord) }));
export const webhookTestResponse = envelope(
  z.object({ ok: z.boolean(), status: z.number().nullable(), response: z.string() }),
);
export const webhookLogResponse = envelope(z.object({ deliveries: z.array(webhookDelivery) }));
