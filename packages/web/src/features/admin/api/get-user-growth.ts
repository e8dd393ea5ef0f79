import { type UserGrowthEntry, userGrowthResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api } from '@/lib/store/api.ts';

/** POST /admin/user-growth in the store: new users per day for the last 7 days, counted in a time zone. */
export const userGrowthApi = api.injectEndpoints({
  endpoints: (build) => ({
    userGrowth: build.query<UserGrowthEntry[], string>({
      query: (timeZone) => ({
        path: '/admin/user-growth',
        body: { timeZone },
        auth: 'admin',
        schema: userGrowthResponse,
      }),
      transformResponse: (response: z.infer<typeof userGrowthResponse>) => response.data,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useUserGrowthQuery } = userGrowthApi;
