import { z } from 'zod';
import { messageOnly } from '../schemas/common.ts';
import {
  createWebhookBody,
  createWebhookResponse,
  WEBHOOK_MESSAGES,
  webhookIdParams,
  webhookLogResponse,
  webhooksResponse,
  webhookTestResponse,
} from '../schemas/webhook.ts';
import { defineContracts, RECORD_ERRORS } from './contract.ts';

/** `/api/v1/webhook/*`: the caller's own webhooks, their delivery log, a test and a replay. */
export const webhookContracts = defineContracts('/webhook', 'signed-in', {
  create: {
    method: 'POST',
    path: '/create',
    summary: 'Add a webhook (its signing secret is in this reply only)',
    body: createWebhookBody,
    response: createWebhookResponse,
    status: 201,
    message: WEBHOOK_MESSAGES.created,
    errors: [400, 503],
  },
  list: {
    method: 'POST',
    path: '/list',
    summary: "The caller's webhooks and whether their last delivery arrived",
    response: webhooksResponse,
    message: WEBHOOK_MESSAGES.listed,
    errors: [],
  },
  remove: {
    method: 'POST',
    path: '/delete/:id',
    summary: 'Delete a webhook',
    params: webhookIdParams,
    response: webhooksResponse,
    message: WEBHOOK_MESSAGES.deleted,
    errors: RECORD_ERRORS,
  },
  test: {
    method: 'POST',
    path: '/test/:id',
    summary: 'Send a test alert now and say whether it arrived',
    params: webhookIdParams,
    response: webhookTestResponse,
    message: WEBHOOK_MESSAGES.tested,
    errors: RECORD_ERRORS,
  },
  log: {
    method: 'POST',
    path: '/log/:id',
    summary: "A webhook's last deliveries with the receiver's answers",
    params: webhookIdParams,
    response: webhookLogResponse,
    message: WEBHOOK_MESSAGES.log,
    errors: RECORD_ERRORS,
  },
  replay: {
    method: 'POST',
    path: '/replay/:id/:deliveryId',
    summary: 'Send a logged message again (same id and body, signed anew)',
    params: webhookIdParams.extend({ deliveryId: z.string().regex(/^\d{1,18}$/) }),
    response: messageOnly,
    message: WEBHOOK_MESSAGES.replayed,
    errors: RECORD_ERRORS,
  },
});
