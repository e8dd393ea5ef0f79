import { type HealthRecord, healthFetchResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api } from '@/lib/store/api.ts';

/** POST /health/fetch/:deviceId `{limit: 1}` in the store: a device's newest record, or null. */
export const latestHealthApi = api.injectEndpoints({
  endpoints: (build) => ({
    latestHealth: build.query<HealthRecord | null, string>({
      query: (deviceId) => ({
        path: `/health/fetch/${encodeURIComponent(deviceId)}`,
        body: { limit: 1 },
        schema: healthFetchResponse,
      }),
      transformResponse: (response: z.infer<typeof healthFetchResponse>) =>
        response.data.healthData[0] ?? null,
    }),
  }),
});

export const { useLatestHealthQuery } = latestHealthApi;
