import {
  ADMIN_SHARE_LINKS_LIMIT,
  adminShareLinkResponse,
  adminShareLinksResponse,
  SHARE_MESSAGES,
} from '@vitalwatch/shared';
import { z } from 'zod';
import { guardEveryRoute } from '../../auth/requirement.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { notFound } from '../../errors.ts';
import * as repo from './repository.ts';

/**
 * `/api/v1/admin/share-links`: every read-only link (its device, maker, expiry and state), and
 * revoking any live one. Admins only; a revocation is in the audit log.
 */
export async function adminShareRoutes(app: AppInstance, ctx: AppContext) {
  // Before validation, so a guest gets 401 and a user 403 whatever they send.
  guardEveryRoute(app, ctx.guards.requireRole('admin'));

  app.get('/share-links', { schema: { response: { 200: adminShareLinksResponse } } }, async () => {
    const rows = await repo.allLinks(ctx.db, ADMIN_SHARE_LINKS_LIMIT);
    const now = new Date();
    return {
      success: true as const,
      message: SHARE_MESSAGES.adminListed,
      data: { links: rows.map((row) => repo.presentAdmin(row, now)) },
    };
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
      const revoked = await repo.revoke(ctx.db, request.params.id);
      if (!revoked) throw notFound(SHARE_MESSAGES.adminNotFound);
      await ctx.audit.record(request, {
        action: 'share-revoke',
        targetType: 'device',
        targetId: revoked.deviceId,
        detail: { link: revoked.id, maker: revoked.userId, by: 'admin' },
      });
      const row = await repo.adminLinkById(ctx.db, revoked.id);
      if (!row) throw notFound(SHARE_MESSAGES.adminNotFound);
      return {
        success: true as const,
        message: SHARE_MESSAGES.adminRevoked,
        data: { link: repo.presentAdmin(row) },
      };
    },
  );
}
