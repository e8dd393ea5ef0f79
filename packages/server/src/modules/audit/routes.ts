import { AUDIT_MESSAGES, auditPageResponse, auditQuery } from '@vitalwatch/shared';
import type { AppContext, AppInstance } from '../../context.ts';

/** `GET /api/v1/admin/audit`: the audit log, newest first, filtered; admins only. */
export async function auditRoutes(app: AppInstance, ctx: AppContext) {
  app.get(
    '/audit',
    {
      onRequest: ctx.guards.requireRole('admin'),
      schema: { querystring: auditQuery, response: { 200: auditPageResponse } },
    },
    async (request) => ({
      success: true as const,
      message: AUDIT_MESSAGES.fetched,
      data: await ctx.audit.list(request.query),
    }),
  );
}
