import { contracts } from '@vitalwatch/shared';
import type { FastifyRequest } from 'fastify';
import { caller } from '../auth/plugin.ts';
import type { AppContext, AppInstance } from '../context.ts';
import { serveContracts, userAuthHooks } from '../http/contract-routes.ts';
import type { WebhookOwner } from './service.ts';

/**
 * `contracts.webhook` under /api/v1/webhook: the signed-in caller's own webhooks (Profile →
 * Notifications): add one (its secret shown once), list, delete, send a test alert and see
 * whether it arrived, read the delivery log, replay a logged message and rotate the secret (the
 * new one shown once; the rotation audit-logged, a secret being security-relevant).
 */
export async function webhookRoutes(app: AppInstance, ctx: AppContext) {
  const own = (request: FastifyRequest): WebhookOwner => ({ scope: 'user', userId: caller(request).userId });
  serveContracts(app, userAuthHooks(ctx.guards), contracts.webhook, {
    create: async (request) => ctx.webhooks.create(own(request), request.body),
    list: async (request) => ({ webhooks: await ctx.webhooks.list(own(request)) }),
    remove: async (request) => ({ webhooks: await ctx.webhooks.remove(own(request), request.params.id) }),
    test: async (request) => ctx.webhooks.test(own(request), request.params.id),
    log: async (request) => ({ deliveries: await ctx.webhooks.log(own(request), request.params.id) }),
    replay: async (request) => {
      const { id, deliveryId } = request.params;
      await ctx.webhooks.replay(own(request), id, deliveryId);
    },
    rotate: async (request) => {
      const rotated = await ctx.webhooks.rotate(own(request), request.params.id);
      await ctx.audit.record(request, {
        action: 'webhook-rotate',
        targetType: null,
        targetId: null,
        detail: {
          scope: 'user',
          webhook: request.params.id,
          oldSecretUntil: rotated.webhook.previousSecretUntil ?? '',
        },
      });
      return rotated;
    },
  });
}
