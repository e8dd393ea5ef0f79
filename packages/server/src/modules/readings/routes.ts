import {
  HEALTH_MESSAGES,
  healthFetchBody,
  healthFetchResponse,
  healthHistoryBody,
  healthHistoryResponse,
} from '@vitalwatch/shared';
import { z } from 'zod';
import { caller } from '../../auth/plugin.ts';
import type { AppContext, AppInstance } from '../../context.ts';

/** `/api/v1/health/*`. */
export async function readingsRoutes(app: AppInstance, ctx: AppContext) {
  const health = ctx.readings;
  app.post(
    '/fetch/:deviceId',
    {
      onRequest: ctx.guards.requireAuth,
      schema: {
        params: z.object({ deviceId: z.string().min(1).max(64) }),
        body: healthFetchBody,
        response: { 200: healthFetchResponse },
      },
    },
    async (request) => ({
      success: true as const,
      message: HEALTH_MESSAGES.fetched,
      data: {
        healthData: await health.fetch(caller(request).userId, request.params.deviceId, request.body),
      },
    }),
  );

  app.post(
    '/history/:deviceId',
    {
      onRequest: ctx.guards.requireAuth,
      preHandler: ctx.heavyReads.gate,
      schema: {
        params: z.object({ deviceId: z.string().min(1).max(64) }),
        body: healthHistoryBody,
        response: { 200: healthHistoryResponse },
      },
    },
    async (request) => ({
      success: true as const,
      message: HEALTH_MESSAGES.historyFetched,
      data: await health.history(caller(request).userId, request.params.deviceId, request.body),
    }),
  );
}
