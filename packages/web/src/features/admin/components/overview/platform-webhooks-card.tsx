import { WebhooksCard } from '@/components/webhooks-card.tsx';
import { platformWebhookCalls } from '../../api/admin-webhooks.ts';

/** The platform's webhooks (a platform setting, beside Backup): every alert of every device is posted to each. */
export function PlatformWebhooksCard() {
  return (
    <WebhooksCard
      id="platform-webhooks-title"
      title="Platform webhooks"
      description="Every alert on the platform is posted, signed, to these addresses (a control room's paging or on-call system), whoever its contacts are."
      calls={platformWebhookCalls}
    />
  );
}
