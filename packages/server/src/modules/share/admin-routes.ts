import {
  ADMIN_SHARE_LINKS_LIMIT,
  adminShareLinkResponse,
  adminShareLinksResponse,
  SHARE_MESSAGES,
} from '@vitalwatch/shared';
import { z } from 'zod';
import { guardEveryRoute } from '../../auth/requirement.ts';
import type { AppContext, AppInstance } from '../../context.ts';

/**
 * `/api/v1/admin/share-links`: every read-only link (its device, maker, expiry and state), and
 * revoking any live one. Admins only; a revocation is in the audit log.
 */
export async function adminShareRoutes(app: AppInstance, ctx: AppContext) {
  // Before validation, so a guest gets 401 and a user 403 whatever they send.
  guardEveryRoute(app, ctx.guards.requireRole('admin'));

  app.get('/share-links', { schema: { response: { 200: adminShareLinksResponse } } }, async () => {
    const links = await ctx.shares.all(ADMIN_SHARE_LINKS_LIMIT);
    return { success: true as const, message: SHARE_MESSAGES.adminListed, data: { links } };
  });

  app.post(
    '/share-links/:id/revoke',
    {
      schema: {
        params: z.object({ id: z.string().uuid() }),
        response: { 200: adminShareLinkResponse },
      },
    },
    async (request) => {
      const { link, maker } = await ctx.shares.revokeAny(request.params.id);
      await ctx.audit.record(request, {
        action: 'share-revoke',
        targetType: 'device',
        targetId: link.deviceId,
        detail: { link: link._id, maker, by: 'admin' },
      });
      return { success: true as const, message: SHARE_MESSAGES.adminRevoked, data: { link } };
    },
  );
}
