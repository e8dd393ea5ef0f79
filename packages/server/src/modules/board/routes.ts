import { BOARD_MESSAGES, boardResponse } from '@vitalwatch/shared';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';

/** `GET /api/v1/board/snapshot`: the signed-in user's board snapshot (an admin, assigned nothing, gets an empty one). */
export async function boardRoutes(app: AppInstance, ctx: AppContext) {
  app.get(
    '/snapshot',
    { onRequest: ctx.guards.requireAuth, schema: { response: { 200: boardResponse } } },
    async (request) => ({
      success: true as const,
      message: BOARD_MESSAGES.fetched,
      data: await ctx.board.snapshot(caller(request).userId),
    }),
  );
}
