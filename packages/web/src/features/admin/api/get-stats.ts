import { type AdminStats, adminStatsResponse } from '@vitalwatch/shared';
import type { z } from 'zod';
import { api } from '@/lib/store/api.ts';

/** POST /admin/stats in the store: users, devices and unread alerts on the platform. */
export const adminStatsApi = api.injectEndpoints({
  endpoints: (build) => ({
    adminStats: build.query<AdminStats, void>({
      query: () => ({ path: '/admin/stats', auth: 'admin', schema: adminStatsResponse }),
      transformResponse: (response: z.infer<typeof adminStatsResponse>) => response.data,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useAdminStatsQuery } = adminStatsApi;
