import { contracts, SERVER_MESSAGES } from '@vitalwatch/shared';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { DomainError, unauthorized } from '../../errors.ts';
import { type ContractHandler, serveContracts, userAuthHooks } from '../../http/contract-routes.ts';

/** `contracts.push`: the VAPID public key, and the caller's connected browsers. */
export async function pushRoutes(app: AppInstance, ctx: AppContext) {
  const { push } = ctx;
  const browsers = ctx.pushBrowsers;
  const remove: ContractHandler<typeof contracts.push.removeBrowser> = async (request) => {
    await browsers.remove(caller(request).userId, request.params.id);
  };
  serveContracts(app, userAuthHooks(ctx.guards), contracts.push, {
    publicKey: async (_request, reply) => {
      const publicKey = push.publicKey();
      if (!publicKey) throw new DomainError('pushNotConfigured', SERVER_MESSAGES.pushNotConfigured);
      // Public, the same for everyone: the one API answer a cache may keep (a rotated key shows within 5 min).
      reply.header('cache-control', 'public, max-age=300');
      return { publicKey };
    },
    receipt: async (request) => {
      const claims = await ctx.pushReceipts.verify(request.body.token);
      if (!claims) throw unauthorized(SERVER_MESSAGES.invalidToken);
      const { subscriptionId, ...receipt } = claims;
      await ctx.alerts.recordReceipt({ ...receipt, event: request.body.event });
      // Any receipt, of an alert or of a daily check, proves the browser it was sent to receives.
      if (subscriptionId) await browsers.received(subscriptionId, receipt.userId, new Date());
    },
    browsers: async (request) => ({ subscriptions: await browsers.list(caller(request).userId) }),
    unsubscribe: async (request) => {
      await browsers.removeByEndpoint(caller(request).userId, request.body.endpoint);
    },
    removeBrowser: remove,
    deleteBrowser: remove,
  });
}
