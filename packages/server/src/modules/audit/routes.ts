import { contracts } from '@vitalwatch/shared';
import type { AppContext, AppInstance } from '../../context.ts';
import { serveContracts, userAuthHooks } from '../../http/contract-routes.ts';

/** `contracts.audit`: the audit log, newest first, filtered; admins only. */
export async function auditRoutes(app: AppInstance, ctx: AppContext) {
  serveContracts(app, userAuthHooks(ctx.guards), contracts.audit, {
    list: (request) => ctx.audit.list(request.query),
  });
}
