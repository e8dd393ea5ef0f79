import { type AlertPriority, type AlertRecord, PRIORITY_LABELS } from '@vitalwatch/shared';

export type WebhookFormat = 'json' | 'slack' | 'teams' | 'ntfy' | 'pagerduty';

/** What every format is made from: the alert, the step, the message's idempotency id and a link. */
export interface WebhookMessage {
  id: string;
  alert: AlertRecord;
  step: number;
  link: string;
  /** A PagerDuty integration's routing key (the webhook's secret plays no part there). */
  routingKey?: string;
}

const title = (m: WebhookMessage) =>
  `${m.step > 0 ? 'Still unacknowledged: ' : ''}${m.alert.alertTitle} (${m.alert.deviceName})`;

/**
 * ntfy priority (1 min … 5 max/urgent) by alert priority: high is 5, the level ntfy lets sound
 * through "do not disturb"; medium 4 (high), low 3 (default).
 */
export const NTFY_PRIORITY: Record<AlertPriority, number> = { high: 5, medium: 4, low: 3 };
/** PagerDuty Events API v2 severity by alert priority. */
export const PAGERDUTY_SEVERITY: Record<AlertPriority, string> = {
  high: 'critical',
  medium: 'warning',
  low: 'info',
};

/** The raw JSON body of one webhook message in the receiver's format (signed as it is). */
export function webhookBody(format: WebhookFormat, m: WebhookMessage): string {
  const { alert } = m;
  const text = `${title(m)}: ${alert.alertMessage} — ${PRIORITY_LABELS[alert.priority]}. ${m.link}`;
  switch (format) {
    case 'slack':
      // Slack incoming webhooks: `text` is the message (and the notification's fallback).
      return JSON.stringify({ text });
    case 'teams':
      // Microsoft Teams incoming webhooks (Workflows) take an Adaptive Card in a message.
      return JSON.stringify({
        type: 'message',
        attachments: [
          {
            contentType: 'application/vnd.microsoft.card.adaptive',
            content: {
              $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
              type: 'AdaptiveCard',
              version: '1.4',
              body: [
                { type: 'TextBlock', text: title(m), weight: 'Bolder', wrap: true },
                { type: 'TextBlock', text: alert.alertMessage, wrap: true },
              ],
              actions: [{ type: 'Action.OpenUrl', title: 'Open alerts', url: m.link }],
            },
          },
        ],
      });
    case 'ntfy':
      // ntfy's JSON publishing (POST to the server's root URL, the topic in the body).
      return JSON.stringify({
        title: title(m),
        message: alert.alertMessage,
        priority: NTFY_PRIORITY[alert.priority],
        tags: [alert.priority === 'high' ? 'rotating_light' : 'warning'],
        click: m.link,
      });
    case 'pagerduty':
      // PagerDuty Events API v2: one incident per alert (dedup_key), triggered again by each step.
      return JSON.stringify({
        routing_key: m.routingKey ?? '',
        event_action: 'trigger',
        dedup_key: alert._id,
        payload: {
          summary: title(m),
          source: alert.deviceName,
          severity: PAGERDUTY_SEVERITY[alert.priority],
          custom_details: { message: alert.alertMessage, alertType: alert.alertType, step: m.step },
        },
        links: [{ href: m.link, text: 'Open alerts' }],
      });
    case 'json':
      return JSON.stringify({
        type: 'alert',
        id: m.id,
        step: m.step,
        alert: {
          id: alert._id,
          device: alert.device,
          deviceName: alert.deviceName,
          alertType: alert.alertType,
          title: alert.alertTitle,
          message: alert.alertMessage,
          priority: alert.priority,
          status: alert.status,
          createdAt: alert.createdAt,
        },
        link: m.link,
      });
  }
}
