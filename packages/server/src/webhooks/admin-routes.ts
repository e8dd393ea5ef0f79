import { contracts } from '@vitalwatch/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext, AppInstance } from '../context.ts';
import { type ContractHandler, serveContracts, userAuthHooks } from '../http/contract-routes.ts';
import type { WebhookOwner } from './service.ts';

type Platform = typeof contracts.platformWebhook;
/** The path of a team's webhooks names the team (already validated by the contract). */
const teamParams = z.object({ teamId: z.string() });

/**
 * Admins' webhooks: a care team's (`/api/v1/admin/teams/:teamId/webhooks`, every alert of the
 * team's devices) and the platform's (`/api/v1/admin/webhooks`, every alert), with the same
 * signing, formats, retries, log, replay and secret rotation as a person's. Adding, deleting,
 * replaying and rotating the secret are audit-logged.
 */
export async function adminWebhookRoutes(app: AppInstance, ctx: AppContext) {
  const hooks = userAuthHooks(ctx.guards);
  const service = ctx.webhooks;

  /** The team of the path, or 404 when there is none. */
  const team = async (request: FastifyRequest): Promise<WebhookOwner> => {
    const { teamId } = teamParams.parse(request.params);
    return service.teamOwner(teamId);
  };

  const audit = async (
    request: FastifyRequest,
    owner: WebhookOwner,
    action: 'webhook-create' | 'webhook-delete' | 'webhook-replay' | 'webhook-rotate',
    detail: Record<string, string>,
  ) =>
    ctx.audit.record(request, {
      action,
      targetType: owner.scope === 'team' ? 'team' : null,
      targetId: owner.scope === 'team' ? owner.teamId : null,
      detail: { scope: owner.scope, ...detail },
    });

  /** The handlers of one scope, `ownerOf` saying whose webhooks a request is about. */
  const handlers = (
    ownerOf: (request: FastifyRequest) => Promise<WebhookOwner>,
  ): { [K in keyof Platform]: ContractHandler<Platform[K]> } => ({
    create: async (request) => {
      const owner = await ownerOf(request);
      const made = await service.create(owner, request.body);
      await audit(request, owner, 'webhook-create', {
        webhook: made.webhook._id,
        url: made.webhook.url,
        format: made.webhook.format,
      });
      return made;
    },
    list: async (request) => ({ webhooks: await service.list(await ownerOf(request)) }),
    remove: async (request) => {
      const owner = await ownerOf(request);
      const left = await service.remove(owner, request.params.id);
      await audit(request, owner, 'webhook-delete', { webhook: request.params.id });
      return { webhooks: left };
    },
    test: async (request) => service.test(await ownerOf(request), request.params.id),
    log: async (request) => ({ deliveries: await service.log(await ownerOf(request), request.params.id) }),
    replay: async (request) => {
      const owner = await ownerOf(request);
      const { id, deliveryId } = request.params;
      await service.replay(owner, id, deliveryId);
      await audit(request, owner, 'webhook-replay', { webhook: id, delivery: deliveryId });
    },
    rotate: async (request) => {
      const owner = await ownerOf(request);
      const rotated = await service.rotate(owner, request.params.id);
      await audit(request, owner, 'webhook-rotate', {
        webhook: request.params.id,
        oldSecretUntil: rotated.webhook.previousSecretUntil ?? '',
      });
      return rotated;
    },
  });
  serveContracts(app, hooks, contracts.teamWebhook, handlers(team));
  serveContracts(
    app,
    hooks,
    contracts.platformWebhook,
    handlers(async () => ({ scope: 'platform' })),
  );
}
