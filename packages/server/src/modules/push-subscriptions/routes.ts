import {
  idParam,
  messageOnly,
  pushBrowsersResponse,
  pushPublicKeyResponse,
  pushReceiptBody,
  pushUnsubscribeBody,
  SERVER_MESSAGES,
} from '@vitalwatch/shared';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { DomainError, unauthorized } from '../../errors.ts';

/** `/api/v1/push`: the VAPID public key, and the caller's connected browsers. */
export async function pushRoutes(app: AppInstance, ctx: AppContext) {
  const { guards, push } = ctx;
  const browsers = ctx.pushBrowsers;

  app.get(
    '/public-key',
    { schema: { response: { 200: pushPublicKeyResponse } } },
    async (_request, reply) => {
      const publicKey = push.publicKey();
      if (!publicKey) throw new DomainError('pushNotConfigured', SERVER_MESSAGES.pushNotConfigured);
      // Public, the same for everyone: the one API answer a cache may keep (a rotated key shows within 5 min).
      reply.header('cache-control', 'public, max-age=300');
      return { success: true as const, message: SERVER_MESSAGES.pushPublicKey, data: { publicKey } };
    },
  );

  // The service worker's report, signed-in or not: the message's own token says which alert and whom.
  app.post(
    '/receipt',
    { schema: { body: pushReceiptBody, response: { 200: messageOnly } } },
    async (request) => {
      const claims = await ctx.pushReceipts.verify(request.body.token);
      if (!claims) throw unauthorized(SERVER_MESSAGES.invalidToken);
      const { subscriptionId, ...receipt } = claims;
      await ctx.alerts.recordReceipt({ ...receipt, event: request.body.event });
      // Any receipt, of an alert or of a daily check, proves the browser it was sent to receives.
      if (subscriptionId) await browsers.received(subscriptionId, receipt.userId, new Date());
      return { success: true as const, message: SERVER_MESSAGES.pushReceiptRecorded };
    },
  );

  app.post(
    '/subscriptions',
    { onRequest: guards.requireAuth, schema: { response: { 200: pushBrowsersResponse } } },
    async (request) => ({
      success: true as const,
      message: SERVER_MESSAGES.pushBrowsers,
      data: { subscriptions: await browsers.list(caller(request).userId) },
    }),
  );

  app.post(
    '/unsubscribe',
    { onRequest: guards.requireAuth, schema: { body: pushUnsubscribeBody, response: { 200: messageOnly } } },
    async (request) => {
      await browsers.removeByEndpoint(caller(request).userId, request.body.endpoint);
      return { success: true as const, message: SERVER_MESSAGES.pushBrowserRemoved };
    },
  );

  // DELETE for REST clients; POST …/delete for the app's all-POST convention.
  for (const [method, url] of [
    ['POST', '/subscriptions/:id/delete'],
    ['DELETE', '/subscriptions/:id'],
  ] as const) {
    app.route({
      method,
      url,
      onRequest: guards.requireAuth,
      schema: { params: idParam, response: { 200: messageOnly } },
      handler: async (request) => {
        await browsers.remove(caller(request).userId, request.params.id);
        return { success: true as const, message: SERVER_MESSAGES.pushBrowserRemoved };
      },
    });
  }
}
