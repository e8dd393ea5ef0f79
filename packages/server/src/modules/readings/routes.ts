import { contracts } from '@vitalwatch/shared';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { serveContracts, userAuthHooks } from '../../http/contract-routes.ts';
import { historyJson } from './presenter.ts';

/** `contracts.health`: the readings of a device the caller may see. */
export async function readingsRoutes(app: AppInstance, ctx: AppContext) {
  const health = ctx.readings;
  serveContracts(app, userAuthHooks(ctx.guards), contracts.health, {
    fetch: async (request) => ({
      healthData: await health.fetch(caller(request).userId, request.params.deviceId, request.body),
    }),
    history: {
      preHandler: ctx.heavyReads.gate,
      handler: async (request) =>
        historyJson(await health.history(caller(request).userId, request.params.deviceId, request.body)),
    },
  });
}
