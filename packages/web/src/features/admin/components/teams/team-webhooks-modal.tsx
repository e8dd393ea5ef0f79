import type { Team } from '@vitalwatch/shared';
import { useMemo } from 'react';
import { Modal } from '@/components/modal.tsx';
import { WebhooksCard } from '@/components/webhooks-card.tsx';
import { teamWebhookCalls } from '../../api/admin-webhooks.ts';

/** A care team's webhooks: every alert of the team's devices is posted, signed, to each. */
export function TeamWebhooksModal({ team, onClose }: { team: Team; onClose: () => void }) {
  const calls = useMemo(() => teamWebhookCalls(team._id), [team._id]);
  return (
    <Modal open title={`Webhooks of ${team.name}`} onClose={onClose} size="max-w-2xl">
      <WebhooksCard
        id="team-webhooks-title"
        title="Team webhooks"
        description="Every alert of this team's devices is posted, signed, to these addresses (a ward's Slack or Teams channel, its pager through PagerDuty, ntfy), whoever its contacts are."
        calls={calls}
      />
    </Modal>
  );
}
