import { contracts } from '@vitalwatch/shared';
import { caller } from '../auth/plugin.ts';
import type { AppContext, AppInstance } from '../context.ts';
import { serveContracts, userAuthHooks } from '../http/contract-routes.ts';

/**
 * `contracts.webhook` under /api/v1/webhook: the signed-in caller's own webhooks (Profile →
 * Notifications): add one (its secret shown once), list, delete, send a test alert and see
 * whether it arrived, read the delivery log and replay a logged message.
 */
export async function webhookRoutes(app: AppInstance, ctx: AppContext) {
  serveContracts(app, userAuthHooks(ctx.guards), contracts.webhook, {
    create: async (request) => ctx.webhooks.create(caller(request).userId, request.body),
    list: async (request) => ({ webhooks: await ctx.webhooks.list(caller(request).userId) }),
    remove: async (request) => ({
      webhooks: await ctx.webhooks.remove(caller(request).userId, request.params.id),
    }),
    test: async (request) => ctx.webhooks.test(caller(request).userId, request.params.id),
    log: async (request) => ({
      deliveries: await ctx.webhooks.log(caller(request).userId, request.params.id),
    }),
    replay: async (request) => {
      const { id, deliveryId } = request.params;
      await ctx.webhooks.replay(caller(request).userId, id, deliveryId);
    },
  });
}
