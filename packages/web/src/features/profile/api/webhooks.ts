import { contracts, type WebhookRecord } from '@vitalwatch/shared';
import type { z } from 'zod';
import { callContract } from '@/lib/call-contract.ts';

type NewWebhook = z.input<typeof contracts.webhook.create.body>;

/** `contracts.webhook.list`: this person's webhooks and whether each one's last delivery arrived. */
export const listWebhooks = async (): Promise<WebhookRecord[]> =>
  (await callContract(contracts.webhook.list, {})).data.webhooks;

/** `contracts.webhook.create`: the new webhook and its signing secret (shown this once). */
export const createWebhook = async (body: NewWebhook) =>
  (await callContract(contracts.webhook.create, { body })).data;

/** `contracts.webhook.remove`: the webhooks left. */
export const deleteWebhook = async (id: string) =>
  (await callContract(contracts.webhook.remove, { params: { id } })).data.webhooks;

/** `contracts.webhook.test`: a signed test alert sent now, and what the receiver answered. */
export const testWebhook = async (id: string) =>
  (await callContract(contracts.webhook.test, { params: { id } })).data;

/** `contracts.webhook.log`: the webhook's last tries, newest first. */
export const webhookLog = async (id: string) =>
  (await callContract(contracts.webhook.log, { params: { id } })).data.deliveries;

/** `contracts.webhook.replay`: queue a logged message again. */
export const replayWebhook = async (id: string, deliveryId: string): Promise<void> => {
  await callContract(contracts.webhook.replay, { params: { id, deliveryId } });
};

/** `contracts.webhook.rotate`: a new signing secret (shown this once); the old one also signs for a day. */
export const rotateWebhookSecret = async (id: string) =>
  (await callContract(contracts.webhook.rotate, { params: { id } })).data;
