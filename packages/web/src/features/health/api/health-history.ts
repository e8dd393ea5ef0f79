import { type HealthHistory, healthHistoryResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api } from '@/lib/store/api.ts';

export interface HistoryArgs {
  deviceId: string;
  from: string;
  to: string;
  points: number;
}

/** POST /health/history/:deviceId in the store: one cache entry per device and window. */
export const healthHistoryApi = api.injectEndpoints({
  endpoints: (build) => ({
    healthHistory: build.query<HealthHistory, HistoryArgs>({
      query: ({ deviceId, ...body }) => ({
        path: `/health/history/${encodeURIComponent(deviceId)}`,
        body,
        schema: healthHistoryResponse,
      }),
      transformResponse: (response: z.infer<typeof healthHistoryResponse>) => response.data,
    }),
  }),
});

export const { useHealthHistoryQuery, useLazyHealthHistoryQuery } = healthHistoryApi;
