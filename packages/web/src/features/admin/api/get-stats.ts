import { type AdminStats, contracts } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** `contracts.admin.stats` in the store: users, devices and unread alerts on the platform. */
export const adminStatsApi = api.injectEndpoints({
  endpoints: (build) => ({
    adminStats: build.query<AdminStats, void>({
      ...fromContract(
        contracts.admin.stats,
        () => ({}),
        (response) => response.data,
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useAdminStatsQuery } = adminStatsApi;
