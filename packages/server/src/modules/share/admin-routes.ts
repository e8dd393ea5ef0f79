import { ADMIN_SHARE_LINKS_LIMIT, contracts } from '@vitalwatch/shared';
import type { AppContext, AppInstance } from '../../context.ts';
import { serveContracts, userAuthHooks } from '../../http/contract-routes.ts';

/**
 * `contracts.adminShare`: every read-only link (its device, maker, expiry and state), and
 * revoking any live one. Admins only; a revocation is in the audit log.
 */
export async function adminShareRoutes(app: AppInstance, ctx: AppContext) {
  serveContracts(app, userAuthHooks(ctx.guards), contracts.adminShare, {
    list: async () => ({ links: await ctx.shares.all(ADMIN_SHARE_LINKS_LIMIT) }),
    revoke: async (request) => {
      const { link, maker } = await ctx.shares.revokeAny(request.params.id);
      await ctx.audit.record(request, {
        action: 'share-revoke',
        targetType: 'device',
        targetId: link.deviceId,
        detail: { link: link._id, maker, by: 'admin' },
      });
      return { link };
    },
  });
}
