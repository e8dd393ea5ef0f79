import { contracts } from '@vitalwatch/shared';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { serveContracts, userAuthHooks } from '../../http/contract-routes.ts';

/** `contracts.gateway`: a user pairs, lists and revokes browser gateways of a device; both in the audit log. */
export async function gatewayRoutes(app: AppInstance, ctx: AppContext) {
  serveContracts(app, userAuthHooks(ctx.guards), contracts.gateway, {
    issue: async (request) => {
      const { deviceId, label } = request.body;
      const issued = await ctx.gateways.issue(caller(request).userId, deviceId, label);
      await ctx.audit.record(request, {
        action: 'gateway-issue',
        targetType: 'device',
        targetId: deviceId,
        detail: { gateway: issued.gateway._id, label },
      });
      return issued;
    },

    list: async (request) => ({
      gateways: await ctx.gateways.list(caller(request).userId, request.body.deviceId),
    }),

    revoke: async (request) => {
      const { deviceId, gatewayId } = request.body;
      const gateways = await ctx.gateways.revoke(caller(request).userId, deviceId, gatewayId);
      await ctx.audit.record(request, {
        action: 'gateway-revoke',
        targetType: 'device',
        targetId: deviceId,
        detail: { gateway: gatewayId },
      });
      return { gateways };
    },
  });
}
