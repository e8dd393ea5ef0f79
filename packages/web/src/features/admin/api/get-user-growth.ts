import { contracts, type UserGrowthEntry } from '@vitalwatch/shared';
import { api } from '@/lib/store/api.ts';
import { fromContract } from '@/lib/store/contract-query.ts';

/** `contracts.admin.userGrowth` in the store: new users per day for the last 7 days, counted in a time zone. */
export const userGrowthApi = api.injectEndpoints({
  endpoints: (build) => ({
    userGrowth: build.query<UserGrowthEntry[], string>({
      ...fromContract(
        contracts.admin.userGrowth,
        (timeZone: string) => ({ body: { timeZone } }),
        (response) => response.data,
      ),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useUserGrowthQuery } = userGrowthApi;
