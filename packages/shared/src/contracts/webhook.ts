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

const teamParams = { teamId: z.string().uuid() };
const deliveryIdParam = { deliveryId: z.string().regex(/^\d{1,18}$/) };

/**
 * The seven webhook endpoints of a team or the platform (as a person's own, below): add, list, delete,
 * test, delivery log, replay, rotate the secret. `owner` is the params every path under the prefix carries (a team's id).
 */
function webhookSpecs<S extends z.ZodRawShape>(whose: string, ownerShape: S) {
  const owner = z.object(ownerShape);
  const hook = z.object({ ...ownerShape, ...webhookIdParams.shape });
  return {
    create: {
      method: 'POST',
      path: '/create',
      summary: `Add a webhook of ${whose} (its signing secret is in this reply only)`,
      params: owner,
      body: createWebhookBody,
      response: createWebhookResponse,
      status: 201,
      message: WEBHOOK_MESSAGES.created,
      errors: [400, 404, 503],
    },
    list: {
      method: 'POST',
      path: '/list',
      summary: `The webhooks of ${whose} and whether their last delivery arrived`,
      params: owner,
      response: webhooksResponse,
      message: WEBHOOK_MESSAGES.listed,
      errors: RECORD_ERRORS,
    },
    remove: {
      method: 'POST',
      path: '/delete/:id',
      summary: `Delete a webhook of ${whose}`,
      params: hook,
      response: webhooksResponse,
      message: WEBHOOK_MESSAGES.deleted,
      errors: RECORD_ERRORS,
    },
    test: {
      method: 'POST',
      path: '/test/:id',
      summary: `Send a test alert to a webhook of ${whose} now and say whether it arrived`,
      params: hook,
      response: webhookTestResponse,
      message: WEBHOOK_MESSAGES.tested,
      errors: RECORD_ERRORS,
    },
    log: {
      method: 'POST',
      path: '/log/:id',
      summary: `The last deliveries of a webhook of ${whose}, with the receiver's answers`,
      params: hook,
      response: webhookLogResponse,
      message: WEBHOOK_MESSAGES.log,
      errors: RECORD_ERRORS,
    },
    replay: {
      method: 'POST',
      path: '/replay/:id/:deliveryId',
      summary: `Send a logged message of a webhook of ${whose} again (same id and body, signed anew)`,
      params: z.object({ ...ownerShape, ...webhookIdParams.shape, ...deliveryIdParam }),
      response: messageOnly,
      message: WEBHOOK_MESSAGES.replayed,
      errors: RECORD_ERRORS,
    },
    rotate: {
      method: 'POST',
      path: '/rotate/:id',
      summary: `Give a webhook of ${whose} a new signing secret (in this reply only); the old one also signs for 24 hours`,
      params: hook,
      response: createWebhookResponse,
      message: WEBHOOK_MESSAGES.rotated,
      errors: RECORD_ERRORS,
    },
  } as const;
}

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
    params: webhookIdParams.extend(deliveryIdParam),
    response: messageOnly,
    message: WEBHOOK_MESSAGES.replayed,
    errors: RECORD_ERRORS,
  },
  rotate: {
    method: 'POST',
    path: '/rotate/:id',
    summary: 'Give a webhook a new signing secret (in this reply only); the old one also signs for 24 hours',
    params: webhookIdParams,
    response: createWebhookResponse,
    message: WEBHOOK_MESSAGES.rotated,
    errors: RECORD_ERRORS,
  },
});

/** `/api/v1/admin/teams/:teamId/webhooks/*`: a care team's webhooks (every alert of its devices), admins only. */
export const teamWebhookContracts = defineContracts(
  '/admin/teams/:teamId/webhooks',
  'admin',
  webhookSpecs('a care team', teamParams),
);

/** `/api/v1/admin/webhooks/*`: the platform's webhooks (every alert), admins only. */
export const platformWebhookContracts = defineContracts(
  '/admin/webhooks',
  'admin',
  webhookSpecs('the platform', {}),
);
