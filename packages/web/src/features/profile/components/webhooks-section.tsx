import { WebhooksCard } from '@/components/webhooks-card.tsx';
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  replayWebhook,
  rotateWebhookSecret,
  testWebhook,
  webhookLog,
} from '../api/webhooks.ts';

const CALLS = {
  list: listWebhooks,
  create: createWebhook,
  remove: deleteWebhook,
  test: testWebhook,
  log: webhookLog,
  replay: replayWebhook,
  rotate: rotateWebhookSecret,
};

/** Profile → Notifications: this person's webhooks, each with "Send a test alert". */
export function WebhooksSection() {
  return (
    <WebhooksCard
      id="webhooks-title"
      title="Webhooks"
      description="Every alert you receive is also posted, signed, to these addresses (Slack, Teams, ntfy, PagerDuty or your own system)."
      calls={CALLS}
    />
  );
}
