import { contracts } from '@vitalwatch/shared';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';
import { serveContracts, userAuthHooks } from '../../http/contract-routes.ts';

/** `contracts.board`: the signed-in user's board snapshot (an admin, assigned nothing, gets an empty one). */
export async function boardRoutes(app: AppInstance, ctx: AppContext) {
  serveContracts(app, userAuthHooks(ctx.guards), contracts.board, {
    snapshot: (request) =>
      ctx.board.reply(
        caller(request).userId,
        request.query.after ? new Date(request.query.after) : undefined,
      ),
  });
}
