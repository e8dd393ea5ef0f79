import { contracts } from '@vitalwatch/shared';
import type { WebhookCalls } from '@/components/webhooks-card.tsx';
import { callContract } from '@/lib/call-contract.ts';

/** `contracts.teamWebhook`: a care team's webhooks (every alert of its devices). */
export const teamWebhookCalls = (teamId: string): WebhookCalls => ({
  list: async () => (await callContract(contracts.teamWebhook.list, { params: { teamId } })).data.webhooks,
  create: async (body) =>
    (await callContract(contracts.teamWebhook.create, { params: { teamId }, body })).data,
  remove: async (id) =>
    (await callContract(contracts.teamWebhook.remove, { params: { teamId, id } })).data.webhooks,
  test: async (id) => (await callContract(contracts.teamWebhook.test, { params: { teamId, id } })).data,
  log: async (id) =>
    (await callContract(contracts.teamWebhook.log, { params: { teamId, id } })).data.deliveries,
  replay: async (id, deliveryId) => {
    await callContract(contracts.teamWebhook.replay, { params: { teamId, id, deliveryId } });
  },
  rotate: async (id) => (await callContract(contracts.teamWebhook.rotate, { params: { teamId, id } })).data,
});

/** `contracts.platformWebhook`: the platform's webhooks (every alert). */
export const platformWebhookCalls: WebhookCalls = {
  list: async () => (await callContract(contracts.platformWebhook.list, { params: {} })).data.webhooks,
  create: async (body) => (await callContract(contracts.platformWebhook.create, { params: {}, body })).data,
  remove: async (id) =>
    (await callContract(contracts.platformWebhook.remove, { params: { id } })).data.webhooks,
  test: async (id) => (await callContract(contracts.platformWebhook.test, { params: { id } })).data,
  log: async (id) => (await callContract(contracts.platformWebhook.log, { params: { id } })).data.deliveries,
  replay: async (id, deliveryId) => {
    await callContract(contracts.platformWebhook.replay, { params: { id, deliveryId } });
  },
  rotate: async (id) => (await callContract(contracts.platformWebhook.rotate, { params: { id } })).data,
};
